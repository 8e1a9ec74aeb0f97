"""A SOCKS5 proxy on 127.0.0.1 that sends every connection to one port of 127.0.0.1.

    socks-forward.py LISTEN_PORT TARGET_PORT

The lab's Dino sessions use it (data/lab/peers/dino.json): Dino connects only to its XMPP
domain's SRV target or port 5222 of the domain, and honours GIO's proxy settings, so the
session's prosody, on a port of its own, is reached through this forwarder whatever host
Dino asks for. It can reach no other address. Prints "listening" once it accepts, and a line
per connection.
"""
import socket
import struct
import sys
import threading

LISTEN, TARGET = int(sys.argv[1]), int(sys.argv[2])


def receive(conn, count):
    data = b""
    while len(data) < count:
        chunk = conn.recv(count - len(data))
        if not chunk:
            raise EOFError("the client closed the connection")
        data += chunk
    return data


def pump(source, sink):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    for conn in (source, sink):
        try:
            conn.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def handle(client):
    try:
        _, methods = receive(client, 2)
        receive(client, methods)
        client.sendall(b"\x05\x00")  # no authentication
        _, command, _, kind = receive(client, 4)
        if kind == 1:
            host = socket.inet_ntoa(receive(client, 4))
        elif kind == 3:
            host = receive(client, receive(client, 1)[0]).decode()
        elif kind == 4:
            host = socket.inet_ntop(socket.AF_INET6, receive(client, 16))
        else:
            raise ValueError("address type %d" % kind)
        (port,) = struct.unpack(">H", receive(client, 2))
        if command != 1:  # CONNECT only
            client.sendall(b"\x05\x07\x00\x01" + bytes(6))
            client.close()
            return
        upstream = socket.create_connection(("127.0.0.1", TARGET))
        print("CONNECT %s:%d -> 127.0.0.1:%d" % (host, port, TARGET), flush=True)
        client.sendall(b"\x05\x00\x00\x01" + socket.inet_aton("127.0.0.1") + struct.pack(">H", TARGET))
        threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
        pump(upstream, client)
    except (OSError, EOFError, ValueError) as error:
        print("error: %s" % error, flush=True)
        client.close()


server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", LISTEN))
server.listen(16)
print("listening 127.0.0.1:%d -> 127.0.0.1:%d" % (LISTEN, TARGET), flush=True)
while True:
    connection, _ = server.accept()
    threading.Thread(target=handle, args=(connection,), daemon=True).start()
