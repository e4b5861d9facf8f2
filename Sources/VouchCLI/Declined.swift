/// The person at the terminal answered no: `message` (such as "Not sent.") on standard output, and exit 1.
struct Declined: Error {
    var message: String
}
