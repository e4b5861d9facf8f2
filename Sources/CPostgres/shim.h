#include <libpq-fe.h>

// The PG_DIAG_* field codes are character-literal macros, which Swift does not import.
static const int vouch_pg_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int vouch_pg_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
