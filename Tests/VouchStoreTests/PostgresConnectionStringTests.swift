import Testing
@testable import VouchStore

struct PostgresConnectionStringTests {
    @Test(arguments: [
        ("postgres://vouch:s3cret@db1:5432/vouch", "postgres://vouch:***@db1:5432/vouch"),
        ("postgresql://vouch:p%40ss@db1,db2/vouch?sslmode=require", "postgresql://vouch:***@db1,db2/vouch?sslmode=require"),
        // A raw @ or / in the password: the last @ before the query ends the user part.
        ("postgres://vouch:a@b/c@db1/vouch", "postgres://vouch:***@db1/vouch"),
        ("postgres://:onlysecret@db1/vouch", "postgres://:***@db1/vouch"),
        ("postgresql:///vouch?host=/run/postgresql&user=vouch&password=s3cret&sslpassword=k3y",
         "postgresql:///vouch?host=/run/postgresql&user=vouch&password=***&sslpassword=***"),
        ("postgres://vouch@db1/vouch", "postgres://vouch@db1/vouch"),
        ("host=db1 user=vouch password=s3cret dbname=vouch", "host=db1 user=vouch password=*** dbname=vouch"),
        ("host=db1 password = 'it\\'s secret' dbname=vouch", "host=db1 password = '***' dbname=vouch"),
        ("password=a\\ b host=db1", "password=*** host=db1"),
        ("host=db1 PASSWORD=s3cret", "host=db1 PASSWORD=***"),
        ("dbname=vouch", "dbname=vouch"),
        ("", ""),
    ])
    func redactionRemovesEveryPassword(url: String, expected: String) {
        #expect(PostgresDatabase.redacted(url) == expected)
    }
}
