use std::process::ExitCode;

fn main() -> ExitCode {
    compare::app::main()
}
