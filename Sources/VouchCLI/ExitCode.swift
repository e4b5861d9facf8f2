/// The process exit status: sysexits(3) values where one fits, so scripts can tell failures apart.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// The server failed (5xx) or something else went wrong.
    case failure = 1
    /// EX_USAGE: the command line is wrong.
    case usage = 64
    /// EX_DATAERR: the server refused the input (400, 404, 409, 413, 415, 422).
    case rejectedInput = 65
    /// EX_UNAVAILABLE: no connection to the server.
    case unavailable = 69
    /// EX_NOPERM: no token, an unknown or revoked token, or a role that may not do this (401, 403).
    case notAllowed = 77
}
