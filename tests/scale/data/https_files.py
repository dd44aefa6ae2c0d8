#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A small HTTPS server for tst_tlsendpoints: serves the files of a directory (GET only, with
# Content-Length, HTTP/1.1 keep-alive) with the given certificate. Prints "ready" once listening.
# Usage: https_files.py HOST PORT CERT KEY DIRECTORY
import http.server
import os
import ssl
import sys

host, port, cert, key, root = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]


class Files(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        path = os.path.normpath(os.path.join(root, self.path.lstrip("/")))
        if not path.startswith(os.path.abspath(root)) or not os.path.isfile(path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        with open(path, "rb") as f:
            body = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/json" if body[:1] == b"{" else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer((host, port), Files)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
print("ready", flush=True)
server.serve_forever()
