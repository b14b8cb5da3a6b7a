//! The one place doc-bridge reads the clock.

/// Now, as RFC 3339 UTC with milliseconds (`2026-07-09T00:00:00.000Z`). `SOURCE_DATE_EPOCH`
/// (seconds since the epoch) overrides the clock, for reproducible builds.
pub fn now_rfc3339() -> String {
    let timestamp = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .and_then(|secs| jiff::Timestamp::from_second(secs).ok())
        .unwrap_or_else(jiff::Timestamp::now);
    timestamp.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}
