#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

typedef enum MHD_Result (*vouch_mhd_access_handler)(void *context, struct MHD_Connection *connection,
    const char *url, const char *method, const char *version,
    const char *upload_data, size_t *upload_data_size, void **request_state);
typedef void (*vouch_mhd_completed_handler)(void *context, struct MHD_Connection *connection,
    void **request_state, enum MHD_RequestTerminationCode reason);

// MHD_start_daemon is variadic, which Swift cannot call: the options Vouch uses, typed.
static inline struct MHD_Daemon *vouch_mhd_start(unsigned int flags, const struct sockaddr *address,
    unsigned int thread_pool_size, unsigned int connection_timeout_seconds, unsigned int connection_limit,
    unsigned int per_ip_connection_limit,
    vouch_mhd_access_handler handler, void *handler_context,
    vouch_mhd_completed_handler completed, void *completed_context) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_connection_limit,
        /* Headers only: bodies are copied out as they arrive. A smaller pool is less memory to reset per request. */
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
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
