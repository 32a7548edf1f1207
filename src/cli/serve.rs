//! `tabula serve FILE [--port P] [--bind ADDR] [--seed S]`: the game as a
//! local web page.
//!
//! Listens on 127.0.0.1 (another address only when `--bind` names it), on
//! the given port or, with port 0 (the default), on a free one; prints the
//! page's address as the first line of standard output and then answers
//! requests one at a time with [`crate::serve::Server`] until stopped.
//! Holds: a bad request gets an error response and the server goes on; a
//! body larger than [`MAX_BODY`] is refused unread.

use super::{EXIT_USAGE, GameArgs};
use crate::serve::{MAX_BODY, Response, Server};
use std::io::{Read, Write};
use std::net::IpAddr;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub game: GameArgs,
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address lets other
    /// machines play the game: name one only on a network you trust.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Seed of the random generator (nature's throws, agents); from the
    /// clock when not given.
    #[arg(long)]
    pub seed: Option<u64>,
}

pub fn run(args: Args) -> i32 {
    let session = match super::repl::open_session(&args.game, args.seed) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let server = match tiny_http::Server::http((args.bind, args.port)) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: cannot listen on {}:{}: {e}", args.bind, args.port);
            return EXIT_USAGE;
        }
    };
    let Some(address) = server.server_addr().to_ip() else {
        errln!("error: the server has no IP address");
        return EXIT_USAGE;
    };
    outln!("http://{address}/");
    let _ = std::io::stdout().flush();
    errln!(
        "serving {} at http://{address}/ (Ctrl-C stops)",
        args.game.file.display()
    );
    let mut game = Server::new(session);
    for mut request in server.incoming_requests() {
        let response = answer(&mut game, &mut request);
        let mut reply =
            tiny_http::Response::from_string(response.body).with_status_code(response.status);
        for (field, value) in [
            ("Content-Type", response.content_type),
            ("Cache-Control", "no-store"),
        ] {
            if let Ok(header) = tiny_http::Header::from_bytes(field, value) {
                reply.add_header(header);
            }
        }
        let _ = request.respond(reply);
    }
    super::EXIT_OK
}

/// Reads a request (its body at most [`MAX_BODY`] bytes) and answers it.
fn answer(game: &mut Server, request: &mut tiny_http::Request) -> Response {
    let method = request.method().as_str().to_string();
    let url = request.url().to_string();
    let content_type = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Content-Type"))
        .map(|h| h.value.as_str().to_string());
    if request.body_length().is_some_and(|n| n as u64 > MAX_BODY) {
        return too_large();
    }
    let mut body = Vec::new();
    if let Err(e) = request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut body)
    {
        return Response {
            status: 400,
            content_type: "application/json",
            body: serde_json::json!({ "error": format!("cannot read the body: {e}") }).to_string(),
        };
    }
    if body.len() as u64 > MAX_BODY {
        return too_large();
    }
    game.handle(&method, &url, content_type.as_deref(), &body)
}

fn too_large() -> Response {
    Response {
        status: 413,
        content_type: "application/json",
        body: serde_json::json!({ "error": format!("a body is at most {MAX_BODY} bytes") })
            .to_string(),
    }
}
