use std::process::ExitCode;

fn main() -> ExitCode {
    kirin::cli::main()
}
