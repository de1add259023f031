//! Why a running cluster could not be asked.

/// Why the cluster could not be asked: one line, naming the address or the file.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{file}: {message}")]
    Config { file: String, message: String },
    #[error("`{text}` is not host:port")]
    Address { text: String },
    #[error("cannot connect to {address}: {message}")]
    Connect { address: String, message: String },
    #[error("{address}: {message}")]
    Protocol { address: String, message: String },
    #[error("{address} refused the SASL login: {message}")]
    Auth { address: String, message: String },
    /// The login could not be tried: no OAUTHBEARER token (the token endpoint's failure).
    #[error("cannot log in to {address}: {message}")]
    Login { address: String, message: String },
    #[error("{address} refused the request {message}")]
    Refused { address: String, message: String },
    /// The replies of the run would pass `--max-answer-mib`: the run stops (exit 2), whichever
    /// broker said it.
    #[error("{address}: {message}")]
    AnswerLimit { address: String, message: String },
}
