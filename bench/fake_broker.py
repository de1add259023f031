#!/usr/bin/env python3
"""A hostile fake Kafka broker on 127.0.0.1, for the `kafkalint live` rows of bench/bad-input.sh.

    bench/fake_broker.py MODE

Prints the port it listens on, then serves until killed. It speaks just enough of Kafka's
protocol for what `kafkalint live` asks (ApiVersions v3, Metadata v12, DescribeConfigs v4,
ListGroups v5, SaslHandshake v1, SaslAuthenticate v2: the layouts of Kafka's
clients/src/main/resources/common/message/*Response.json), and misbehaves as MODE says:

  huge-array       Metadata says 0xFFFFFFFF brokers in a reply of a few bytes
  brokers-50000    Metadata names 50,000 brokers (all but the first at a closed port)
  huge-frame       Metadata's reply says 255 MiB and sends it
  parallel-frames  8 brokers, each answering DescribeConfigs with 30 MiB, side by side
  trickle          ApiVersions answered one byte every half second, for ever
  sasl-echo        SaslAuthenticate fails with an error message echoing the PLAIN token
"""

import socketserver
import struct
import sys
import time

MODE = sys.argv[1]


def uvarint(n):
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def cstr(text):
    if text is None:
        return b"\x00"
    data = text.encode() if isinstance(text, str) else text
    return uvarint(len(data) + 1) + data


def carray(items):
    return uvarint(len(items) + 1) + b"".join(items)


TAGS = b"\x00"


def i16(n):
    return struct.pack(">h", n)


def i32(n):
    return struct.pack(">i", n)


def api_versions():
    keys = [(18, 3), (3, 12), (32, 4), (16, 5), (10, 6), (17, 1), (36, 2)]
    return i16(0) + carray([i16(k) + i16(0) + i16(m) + TAGS for k, m in keys]) + i32(0) + TAGS


def metadata(port, brokers):
    listed = []
    for node in range(brokers):
        # Broker 0 is this server; with many brokers the others are at a closed port.
        at = port if node == 0 or brokers <= 8 else 1
        listed.append(i32(node) + cstr("127.0.0.1") + i32(at) + cstr(None) + TAGS)
    return i32(0) + carray(listed) + cstr("fake") + i32(0) + carray([]) + TAGS


def describe_configs(value_bytes):
    config = cstr("log.dirs") + cstr(b"x" * value_bytes) + b"\x00" + b"\x04" + b"\x00" + carray([]) + b"\x00" + cstr(None) + TAGS
    result = i16(0) + cstr(None) + b"\x04" + cstr("0") + carray([config]) + TAGS
    return i32(0) + carray([result]) + TAGS


def list_groups():
    return i32(0) + i16(0) + carray([]) + TAGS


class Handler(socketserver.BaseRequestHandler):
    def read(self, count):
        data = b""
        while len(data) < count:
            piece = self.request.recv(count - len(data))
            if not piece:
                raise ConnectionError
            data += piece
        return data

    def send(self, correlation, body, flexible_header=True):
        frame = i32(correlation) + (TAGS if flexible_header else b"") + body
        self.request.sendall(struct.pack(">I", len(frame)) + frame)

    def handle(self):
        port = self.server.server_address[1]
        try:
            while True:
                size = struct.unpack(">I", self.read(4))[0]
                request = self.read(size)
                key, version, correlation = struct.unpack(">hhi", request[:8])
                self.answer(key, correlation, request, port)
        except (ConnectionError, OSError):
            return

    def answer(self, key, correlation, request, port):
        if key == 18:
            if MODE == "trickle":
                body = i32(correlation) + api_versions()
                frame = struct.pack(">I", len(body)) + body
                while True:
                    for byte in frame:
                        self.request.sendall(bytes([byte]))
                        time.sleep(0.5)
            self.send(correlation, api_versions(), flexible_header=False)
        elif key == 3:
            if MODE == "huge-array":
                self.send(correlation, i32(0) + uvarint(0xFFFFFFFF))
            elif MODE == "huge-frame":
                size = 255 << 20
                self.request.sendall(struct.pack(">I", size) + i32(correlation))
                chunk = bytes(1 << 20)
                for _ in range(255):
                    self.request.sendall(chunk)
            else:
                brokers = {"brokers-50000": 50000, "parallel-frames": 8}.get(MODE, 1)
                self.send(correlation, metadata(port, brokers))
        elif key == 32:
            big = 30 << 20 if MODE == "parallel-frames" else 0
            self.send(correlation, describe_configs(big))
        elif key == 16:
            self.send(correlation, list_groups())
        elif key == 17:
            self.send(correlation, i16(0) + struct.pack(">i", 1) + struct.pack(">h", 5) + b"PLAIN", flexible_header=False)
        elif key == 36:
            # The end of the request, the token kafkalint sent (\0user\0password) in it,
            # echoed in the error message.
            echoed = request[-60:].replace(b"\x00", b" ").decode("latin-1")
            body = i16(58) + cstr("login failed for" + echoed) + cstr(b"") + struct.pack(">q", 0) + TAGS
            self.send(correlation, body)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
