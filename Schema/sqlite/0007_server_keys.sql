-- Keys the server signs with, made once and shared by every vouchd on this database: the key of OFREP event
-- stream credentials lives here, so a restart (or another node) still accepts the addresses clients hold.
CREATE TABLE server_keys (
    name TEXT PRIMARY KEY,
    key BLOB NOT NULL,
    created_at_ms INTEGER NOT NULL
);
