#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <unistd.h>
#include <microhttpd.h>

typedef enum MHD_Result (*vouch_mhd_access_handler)(void *context, struct MHD_Connection *connection,
    const char *url, const char *method, const char *version,
    const char *upload_data, size_t *upload_data_size, void **request_state);
typedef void (*vouch_mhd_completed_handler)(void *context, struct MHD_Connection *connection,
    void **request_state, enum MHD_RequestTerminationCode reason);
/* MHD_OPTION_URI_LOG_CALLBACK: sees the request target as sent, before libmicrohttpd splits off and parses
   the query and percent-decodes the path; what it returns becomes the request state of the first access call. */
typedef void *(*vouch_mhd_target_handler)(void *context, const char *target, struct MHD_Connection *connection);
/* MHD_OPTION_NOTIFY_CONNECTION: a socket accepted (STARTED) or about to be closed (CLOSED). */
typedef void (*vouch_mhd_connection_handler)(void *context, struct MHD_Connection *connection,
    void **socket_context, enum MHD_ConnectionNotificationCode code);

/* The limits and callbacks Vouch starts libmicrohttpd with. */
struct vouch_mhd_settings {
    unsigned int flags;
    const struct sockaddr *address;
    unsigned int thread_pool_size;
    unsigned int connection_timeout_seconds;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    size_t connection_memory_bytes;
    vouch_mhd_access_handler handler;
    vouch_mhd_completed_handler completed;
    vouch_mhd_target_handler target;
    vouch_mhd_connection_handler connection;
    /* Passed to every callback above. */
    void *context;
};

/* MHD_OPTION_UNESCAPE_CALLBACK: libmicrohttpd's own percent-decoding of the path and query arguments
   (MHD_http_unescape, what its default callback calls), skipped when the text holds no '%': decoding changes
   nothing then, and MHD_http_unescape copies the text onto itself byte by byte (about as much work per OFREP
   request as the flag's evaluation). */
static inline size_t vouch_mhd_unescape(void *context, struct MHD_Connection *connection, char *text) {
    (void)context;
    (void)connection;
    return strchr(text, '%') == NULL ? strlen(text) : MHD_http_unescape(text);
}

// MHD_start_daemon is variadic, which Swift cannot call: the options Vouch uses, typed.
static inline struct MHD_Daemon *vouch_mhd_start(const struct vouch_mhd_settings *settings) {
    return MHD_start_daemon(settings->flags, 0, NULL, NULL, settings->handler, settings->context,
        MHD_OPTION_SOCK_ADDR, settings->address,
        MHD_OPTION_THREAD_POOL_SIZE, settings->thread_pool_size,
        MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->per_ip_connection_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->connection_memory_bytes,
        MHD_OPTION_NOTIFY_COMPLETED, settings->completed, settings->context,
        MHD_OPTION_URI_LOG_CALLBACK, settings->target, settings->context,
        MHD_OPTION_NOTIFY_CONNECTION, settings->connection, settings->context,
        MHD_OPTION_UNESCAPE_CALLBACK, vouch_mhd_unescape, NULL,
        MHD_OPTION_END);
}

// MHD_get_daemon_info is variadic too; the port matters when the daemon was asked for port 0.
static inline uint16_t vouch_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// MHD_get_connection_info is variadic as well: the peer's address, for per-address limits and logs.
static inline const struct sockaddr *vouch_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

// The connection's socket, which the deadline reaper shuts down (never closes); -1 when unknown.
static inline int vouch_mhd_connection_descriptor(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

// What the connection callback stored for this socket: Vouch keeps the connection's tracking slot there.
static inline void *vouch_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

// "Return length of the client's HTTP request header": the request line and every header line, as received.
static inline size_t vouch_mhd_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

// What a content reader returns to end a body: MHD_CONTENT_READER_END_OF_STREAM and _END_WITH_ERROR are macros
// with a cast, which Swift does not import.
static inline ssize_t vouch_mhd_end_of_stream(void) {
    return MHD_CONTENT_READER_END_OF_STREAM;
}

static inline ssize_t vouch_mhd_end_with_error(void) {
    return MHD_CONTENT_READER_END_WITH_ERROR;
}

/* Gives back to the kernel the whole memory pages inside [buffer, buffer + size): they read as zeros afterwards and
   take memory again only once written. For the buffer libmicrohttpd lends a content reader, while the reader's
   stream waits with nothing to send: the buffer is most of the connection's memory, libmicrohttpd has written all of
   it by then, and only the reader writes there until it returns bytes (docs/architecture.md, "Answers that wait").
   Returns the bytes given back. */
static inline size_t vouch_release_pages(void *buffer, size_t size) {
    long found = sysconf(_SC_PAGESIZE);
    size_t page = found > 0 ? (size_t)found : 4096;
    uintptr_t start = ((uintptr_t)buffer + page - 1) & ~(uintptr_t)(page - 1);
    uintptr_t end = ((uintptr_t)buffer + size) & ~(uintptr_t)(page - 1);
    if (end <= start || madvise((void *)start, end - start, MADV_DONTNEED) != 0) return 0;
    return end - start;
}
