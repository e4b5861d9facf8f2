import Testing
@testable import VouchStore

struct PlaceholderRewriterTests {
    @Test(arguments: [
        ("SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = $1 AND c = $2", 2),
        // SQLite numbers a bare ? one past the largest number so far.
        ("UPDATE t SET a = ?2, b = ? WHERE id = ?1 OR parent = ?1", "UPDATE t SET a = $2, b = $3 WHERE id = $1 OR parent = $1", 3),
        ("SELECT ?1 + ?1", "SELECT $1 + $1", 1),
        ("SELECT ?12", "SELECT $12", 12),
        ("SELECT 1", "SELECT 1", 0),
        // Text that only looks like a placeholder stays as it is.
        ("SELECT '?', 'it''s ?', ? FROM t", "SELECT '?', 'it''s ?', $1 FROM t", 1),
        ("SELECT E'\\' ?', ?", "SELECT E'\\' ?', $1", 1),
        ("SELECT \"odd?name\", ? FROM t", "SELECT \"odd?name\", $1 FROM t", 1),
        ("SELECT ? -- why ?\n, ?", "SELECT $1 -- why ?\n, $2", 2),
        ("SELECT /* a /* nested ? */ still ? */ ?", "SELECT /* a /* nested ? */ still ? */ $1", 1),
        ("SELECT $$ ? $$, $tag$ ?$$? $tag$, ?", "SELECT $$ ? $$, $tag$ ?$$? $tag$, $1", 1),
        // A $ inside an identifier or before a digit starts no string.
        ("SELECT a$b, ?, $1", "SELECT a$b, $1, $1", 1),
        ("SELECT 'Ünïcödé ?' || ?", "SELECT 'Ünïcödé ?' || $1", 1),
        // An unterminated literal is copied to the end; PostgreSQL reports the syntax error.
        ("SELECT 'open ?", "SELECT 'open ?", 0),
    ])
    func rewritesPlaceholdersOutsideLiteralsAndComments(sql: String, expected: String, parameterCount: Int) {
        #expect(PlaceholderRewriter.rewrite(sql) == .init(sql: expected, parameterCount: parameterCount))
    }
}
