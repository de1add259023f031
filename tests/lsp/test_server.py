"""`kafkalint server` end to end over stdio, driven by pytest-lsp (run by tests/editors.rs).

The binary comes from the KAFKALINT environment variable, the seed scenario (three brokers with
offsets.topic.replication.factor=1) from FIXTURE.
"""

import os
import pathlib
import shutil

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

# A UTF-8 comment with Latin-1 letters, a `\u` escape, a password that must never come back.
BROKER_0 = (
    "# Gr\u00f6\u00dfe: caf\u00e9\n"
    "broker.id=0\n"
    "zookeeper.connect=zk:2181\n"
    "offsets.topic.replication.factor=1\n"
    "log.dirs=/tmp/kafka-logs-\u00e9\n"
    "ssl.key.password=hunter2secret\n"
    "reserved.broker.max.id=10\\u0030\n"
)
SECRET = "hunter2secret"


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[os.environ["KAFKALINT"], "server"]),
)
async def client(lsp_client: LanguageClient):
    params = types.InitializeParams(
        capabilities=types.ClientCapabilities(
            general=types.GeneralClientCapabilities(
                position_encodings=[types.PositionEncodingKind.Utf16]
            )
        )
    )
    result = await lsp_client.initialize_session(params)
    assert result.capabilities.position_encoding == types.PositionEncodingKind.Utf16
    assert result.server_info.name == "kafkalint"
    yield
    await lsp_client.shutdown_session()


def scenario(tmp_path: pathlib.Path) -> pathlib.Path:
    fixture = pathlib.Path(os.environ["FIXTURE"])
    for name in ("server-0.properties", "server-1.properties", "server-2.properties"):
        shutil.copy(fixture / name, tmp_path / name)
    broker_0 = tmp_path / "server-0.properties"
    broker_0.write_text(BROKER_0, encoding="utf-8")
    return broker_0


async def diagnostics_of(client: LanguageClient, uri: str, version: int):
    """The diagnostics published next for version `version` of `uri`."""
    while True:
        params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == uri and params.version == version:
            return params.diagnostics


def by_code(diagnostics, code):
    return [d for d in diagnostics if d.code == code]


@pytest.mark.asyncio(loop_scope="function")
async def test_diagnostics_hover_code_action_and_change(client: LanguageClient, tmp_path):
    broker_0 = scenario(tmp_path)
    uri = broker_0.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="properties", version=1, text=BROKER_0
            )
        )
    )
    diagnostics = await diagnostics_of(client, uri, 1)
    [offsets] = by_code(diagnostics, "internal-topic-replication")
    assert offsets.range == types.Range(
        start=types.Position(line=3, character=33), end=types.Position(line=3, character=34)
    )
    assert offsets.severity == types.DiagnosticSeverity.Error
    assert offsets.code_description.href.endswith("/rules/internal-topic-replication.md")
    # The value ends after `é`: one UTF-16 unit.
    [tmp] = by_code(diagnostics, "log-dirs-in-tmp")
    assert (tmp.range.start.character, tmp.range.end.character) == (9, 26)
    assert by_code(diagnostics, "plaintext-secret")

    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=3, character=4),
        )
    )
    assert "**offsets.topic.replication.factor**" in hover.contents.value
    assert "- default: `3`" in hover.contents.value
    secret_hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=5, character=3),
        )
    )
    assert "- type: PASSWORD" in secret_hover.contents.value

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=offsets.range,
            context=types.CodeActionContext(diagnostics=[offsets]),
        )
    )
    [action] = actions
    assert action.kind == types.CodeActionKind.QuickFix
    [edit] = action.edit.changes[uri]
    assert edit.new_text == "3"
    assert edit.range == offsets.range

    fixed = BROKER_0.replace("factor=1", "factor=3")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    changed = await diagnostics_of(client, uri, 2)
    assert not by_code(changed, "internal-topic-replication")
    assert by_code(changed, "inconsistent-cluster-value")

    everything = [d.message for d in list(diagnostics) + list(changed)]
    everything += [hover.contents.value, secret_hover.contents.value, action.title]
    everything += [m.message for m in client.log_messages]
    assert not [text for text in everything if SECRET in text]
