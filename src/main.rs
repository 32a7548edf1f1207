//! The `tabula` binary: a thin shell over [`tabula::cli`].

fn main() {
    std::process::exit(tabula::cli::main());
}
