//! `tabula lsp`: the language server for editors ([`crate::lsp`],
//! `docs/EDITORS.md`) over standard input and output.
//!
//! In: the protocol's frames on stdin (`Content-Length: N`, a blank line, N
//! bytes of JSON). Out: the answers' frames on stdout, and the exit code: 0
//! after the client's `shutdown`, 1 if it left without one. Holds: no
//! input ends the server: a frame that is not UTF-8 is read with
//! replacement characters, one that is not JSON-RPC is skipped (and named
//! on stderr), one larger than [`MAX_MESSAGE_BYTES`] is skipped unread.

use lsp_server::{Connection, Message};
use std::io::{BufRead, Read, Write};

#[derive(clap::Args)]
pub struct Args {
    /// Talk over standard input and output (the only way; accepted for
    /// clients that pass it).
    #[arg(long)]
    pub stdio: bool,
}

pub fn run(_args: Args) -> i32 {
    let (server, client) = Connection::memory();
    let to_server = client.sender;
    std::thread::spawn(move || {
        let mut input = std::io::BufReader::new(std::io::stdin().lock());
        while let Ok(Some(body)) = read_frame(&mut input) {
            match serde_json::from_str::<Message>(&String::from_utf8_lossy(&body)) {
                Ok(message) => {
                    if to_server.send(message).is_err() {
                        break;
                    }
                }
                Err(e) => errln!("tabula lsp: skipped a message that is not JSON-RPC: {e}"),
            }
        }
    });
    let from_server = client.receiver;
    let writer = std::thread::spawn(move || {
        let mut output = std::io::stdout().lock();
        for message in from_server {
            if message.write(&mut output).is_err() {
                break;
            }
        }
        let _ = output.flush();
    });
    let code = crate::lsp::serve(server);
    let _ = writer.join();
    code
}

/// The largest message read; a larger one is skipped.
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;
/// The longest header line read.
const MAX_HEADER_LINE: u64 = 1 << 10;

/// One frame's body: `Content-Length: N` headers, a blank line, N bytes.
/// `None` at the end of the input.
fn read_frame(input: &mut impl BufRead) -> std::io::Result<Option<Vec<u8>>> {
    let mut length: Option<usize> = None;
    loop {
        let mut line = Vec::new();
        if input
            .by_ref()
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)?
            == 0
        {
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim();
        if line.is_empty() {
            if length.is_some() {
                break;
            }
            continue;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok();
        }
    }
    let length = length.unwrap_or(0);
    if length > MAX_MESSAGE_BYTES {
        std::io::copy(
            &mut input.by_ref().take(length as u64),
            &mut std::io::sink(),
        )?;
        return Ok(Some(Vec::new()));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_survive_bad_bytes_and_bad_lengths() {
        let mut input: &[u8] = b"Content-Length: 3\r\n\r\n{\xff}\r\ncontent-length:2\r\n\r\n{}Content-Length: 99999999999\r\n\r\n";
        assert_eq!(read_frame(&mut input).unwrap(), Some(b"{\xff}".to_vec()));
        assert_eq!(
            read_frame(&mut input).unwrap(),
            Some(b"{}".to_vec()),
            "case and spaces of the header"
        );
        assert_eq!(
            read_frame(&mut input).unwrap(),
            Some(Vec::new()),
            "too large: skipped"
        );
        assert_eq!(read_frame(&mut input).unwrap(), None);
    }
}
