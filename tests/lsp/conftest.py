"""Shared set-up of the language server's end-to-end tests.

A pytest-lsp client starts `target/release/tabula lsp` (build it first with
`cargo build --release`), initializes it with the repository as its
workspace, and shuts it down after the test. Run with
`.venv/bin/python -m pytest tests/lsp` (`scripts/venv` makes .venv).
"""

import asyncio
import os
import pathlib
import subprocess

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
TABULA = ROOT / "target" / "release" / "tabula"
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"
IN_CI = os.environ.get("CI") == "true"




def pytest_collection_modifyitems(config, items):
    """Skips every test when the binary is not built (an error under CI)."""
    if TABULA.exists():
        return
    message = f"{TABULA} is missing: run `cargo build --release` first"
    if IN_CI:
        raise pytest.UsageError(message)
    for item in items:
        item.add_marker(pytest.mark.skip(reason=message))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[str(TABULA), "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=ROOT.as_uri(),
        )
    )
    yield
    await lsp_client.shutdown_session()


def uri(path: pathlib.Path) -> str:
    return path.resolve().as_uri()


def open_file(client: LanguageClient, path: pathlib.Path, text: str | None = None) -> str:
    """Opens a file (with its text on disk, or `text`) and returns its URI."""
    if text is None:
        text = path.read_text()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri(path), language_id="tabula", version=1, text=text
            )
        )
    )
    return uri(path)


def position_of(text: str, needle: str, offset: int = 0) -> types.Position:
    """The position of the first `needle` in `text`, plus `offset` characters."""
    i = text.index(needle)
    line = text.count("\n", 0, i)
    column = i - (text.rfind("\n", 0, i) + 1)
    return types.Position(line=line, character=column + offset)


async def wait_diagnostics(client: LanguageClient, doc: str, accept) -> list:
    """Waits for diagnostics of `doc` that `accept` accepts (a deadline of a
    minute guards against a hang; nothing is timed)."""
    for _ in range(100):
        found = client.diagnostics.get(doc)
        if found is not None and accept(found):
            return found
        await asyncio.wait_for(
            client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 60
        )
    raise AssertionError(f"no accepted diagnostics for {doc}: {client.diagnostics.get(doc)}")


def check_cli(path: pathlib.Path) -> tuple[int, int, str, str]:
    """`(line, column, code, message)` of the first diagnostic that
    `tabula check` prints for a file."""
    out = subprocess.run(
        [str(TABULA), "check", "--playouts", "0", str(path)],
        capture_output=True, text=True, check=False,
    )
    first = out.stderr.splitlines()[0]
    rest = first[len(f"{path}:"):]
    line, column, rest = rest.split(":", 2)
    code = rest[rest.index("[") + 1 : rest.index("]")]
    message = rest[rest.index("]: ") + 3 :]
    return int(line), int(column), code, message
