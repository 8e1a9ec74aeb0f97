"""The other end of a chat app's one-to-one conversation: an XMPP client that prints what it receives.

The lab reads a chat app's sends where AT-SPI cannot show them reliably (Dino 0.4.2 on GTK
4.8 adds a message's label without announcing it) at the server instead: what the person
on the other end receives. Run in the session beside the app's server (the lab's prosody,
on 127.0.0.1 only), it logs in as JID with PASSWORD (STARTTLS: the lab's self-signed
certificate is accepted, the connection never leaves the loopback; SASL PLAIN), sends its
presence and prints a JSON line for its readiness and each message with a body (chat
states and receipts have none), flushed at once:

    {"ready": true}
    {"body": TEXT, "from": JID}

    xmpp-receive.py PORT JID PASSWORD

Python's standard library only. Exits 1 with the reason on stderr when the server refuses
or closes the stream.
"""
import base64
import socket
import ssl
import sys
import json
import xml.etree.ElementTree as ET

STREAM = "http://etherx.jabber.org/streams"
CLIENT = "jabber:client"


def emit(**fields):
    print(json.dumps(fields, ensure_ascii=False), flush=True)


class Stream:
    """One XMPP stream over a socket, parsed as it arrives (XMLPullParser): its top-level
    elements one at a time. A new stream (after STARTTLS and SASL) starts a new parser."""

    def __init__(self, sock, domain):
        self.sock, self.domain = sock, domain
        self.open()

    def open(self):
        self.parser = ET.XMLPullParser(events=("start", "end"))
        self.depth = 0
        self.ready = []
        self.send("<?xml version='1.0'?><stream:stream to='%s' version='1.0' xmlns='%s' xmlns:stream='%s'>"
                  % (self.domain, CLIENT, STREAM))

    def send(self, text):
        self.sock.sendall(text.encode("utf-8"))

    def next(self):
        """The next complete top-level element of the stream."""
        while not self.ready:
            data = self.sock.recv(65536)
            if not data:
                sys.exit("xmpp-receive: the server closed the stream")
            self.parser.feed(data)
            for event, element in self.parser.read_events():
                if event == "start":
                    self.depth += 1
                else:
                    self.depth -= 1
                    if self.depth == 1:
                        self.ready.append(element)
        return self.ready.pop(0)

    def expect(self, tag):
        while True:
            element = self.next()
            if element.tag == tag:
                return element
            if element.tag == "{%s}error" % STREAM:
                sys.exit("xmpp-receive: stream error: %s" % ET.tostring(element, encoding="unicode"))


def main():
    port, jid, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    user, domain = jid.split("@", 1)
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    stream = Stream(sock, domain)
    stream.expect("{%s}features" % STREAM)
    stream.send("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
    stream.expect("{urn:ietf:params:xml:ns:xmpp-tls}proceed")
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the lab's own certificate, on the loopback
    stream.sock = context.wrap_socket(sock, server_hostname=domain)
    stream.open()
    stream.expect("{%s}features" % STREAM)
    token = base64.b64encode(("\0%s\0%s" % (user, password)).encode("utf-8")).decode("ascii")
    stream.send("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>%s</auth>" % token)
    while True:
        answer = stream.next()
        if answer.tag == "{urn:ietf:params:xml:ns:xmpp-sasl}success":
            break
        if answer.tag == "{urn:ietf:params:xml:ns:xmpp-sasl}failure":
            sys.exit("xmpp-receive: %s refused the login: %s" % (jid, ET.tostring(answer, encoding="unicode")))
    stream.open()
    stream.expect("{%s}features" % STREAM)
    stream.send("<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>"
                "<resource>lab-receiver</resource></bind></iq>")
    while stream.next().get("id") != "bind":
        pass
    # Presence and a round trip after it: once its answer is back, the server routes the
    # conversation's messages here.
    stream.send("<presence/><iq type='get' id='ping'><ping xmlns='urn:xmpp:ping'/></iq>")
    stream.sock.settimeout(None)
    while True:
        element = stream.next()
        if element.get("id") == "ping":
            emit(ready=True)
        elif element.tag == "{%s}message" % CLIENT:
            body = element.find("{%s}body" % CLIENT)
            if body is not None and body.text is not None:
                emit(body=body.text, **{"from": element.get("from", "")})


if __name__ == "__main__":
    main()
