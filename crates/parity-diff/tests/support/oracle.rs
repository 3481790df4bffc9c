//! Fixture oracles: small programs the tests run as `--oracle`, in place
//! of a real implementation. Each reads the JSON array of cases on stdin
//! and prints one result per case, as any port does.
