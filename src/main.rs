//! The command line: parse arguments, run the check, print, choose the exit code.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use kafkalint::catalog::KafkaVersion;
use kafkalint::output::{self, FullStyle};

/// A fast, exact static linter for Apache Kafka broker configuration.
#[derive(Parser)]
#[command(name = "kafkalint", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check broker and controller files: every folder of node files is one cluster, and the
    /// files named together on the command line are one cluster.
    Check {
        /// Files or folders to check.
        #[arg(default_value = ".")]
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Full)]
        format: Format,
        /// The cluster's real broker count, when the files are fewer (one templated file).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        brokers: Option<u32>,
        /// The Kafka release to check against, `X.Y` or `X.Y.Z` (default: what the files show,
        /// else the newest release kafkalint knows).
        #[arg(long, value_name = "X.Y", value_parser = parse_kafka_version)]
        kafka_version: Option<KafkaVersion>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// Source snippets with labels and help, for people.
    Full,
    /// One JSON document, for programs.
    Json,
}

fn parse_kafka_version(text: &str) -> Result<KafkaVersion, String> {
    KafkaVersion::parse(text).map_err(|error| error.to_string())
}

/// Exit codes: 0 clean, 1 findings at warning or above, 2 usage or I/O error.
const EXIT_FINDINGS: u8 = 1;
const EXIT_ERROR: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            paths,
            format,
            brokers,
            kafka_version,
        } => {
            let options = kafkalint::Options {
                brokers: brokers.map(|n| n as usize),
                kafka_version,
            };
            let report = match kafkalint::check(&paths, &options) {
                Ok(report) => report,
                Err(error) => {
                    eprintln!("kafkalint: error: {error}");
                    return ExitCode::from(EXIT_ERROR);
                }
            };
            for skipped in &report.skipped {
                eprintln!("kafkalint: skipped {skipped}");
            }
            let text = match format {
                Format::Json => output::json(&report),
                Format::Full => {
                    let terminal = std::io::stdout().is_terminal();
                    let color =
                        terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
                    output::full(&report, FullStyle { color, width: 100 })
                }
            };
            if let Err(error) = std::io::stdout().lock().write_all(text.as_bytes()) {
                // A closed pipe (`kafkalint check | head`) is not an error worth a panic.
                if error.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("kafkalint: error: cannot write output: {error}");
                    return ExitCode::from(EXIT_ERROR);
                }
            }
            if report.has_findings() {
                ExitCode::from(EXIT_FINDINGS)
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}
