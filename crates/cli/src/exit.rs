//! Exit codes and the one place errors become messages.

/// The exit codes scripts can rely on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Success; fresh.
    Ok = 0,
    /// Findings, or stale.
    Findings = 1,
    /// Usage, I/O or corrupt-artifact error.
    Error = 2,
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit as u8)
    }
}

/// An error that reaches the user: a message and the exit code it maps to.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct UserError {
    /// What happened, where, and what to do.
    pub message: String,
    /// The exit code.
    pub exit: Exit,
}

impl UserError {
    /// A usage, I/O or corrupt-artifact error (exit 2).
    pub fn error(message: impl Into<String>) -> Self {
        UserError {
            message: message.into(),
            exit: Exit::Error,
        }
    }
    /// A finding or stale state (exit 1).
    pub fn findings(message: impl Into<String>) -> Self {
        UserError {
            message: message.into(),
            exit: Exit::Findings,
        }
    }
}

/// The result of a command: an exit code, or an error to report.
pub type CommandResult = Result<Exit, UserError>;
