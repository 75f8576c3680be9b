#!/usr/bin/python3
"""relay.py MODE LISTEN TARGET — how `make demo` lets the host's browser reach
parapet in the scrubber namespace without touching the host's network: a TCP
listener on the host's loopback relays each connection to a Unix socket (a
file, which every network namespace can open), where a second relay, started
inside the scrubber namespace, relays it to parapet's port there. Bytes only:
TLS stays end to end.
  relay.py tcp HOST:PORT SOCKET     listen on TCP, connect to the Unix socket
  relay.py unix SOCKET HOST:PORT    listen on the Unix socket, connect over TCP
"""
import asyncio
import os
import sys


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except OSError:
        pass
    finally:
        writer.close()


def main():
    mode, listen, target = sys.argv[1:4]

    async def handle(reader, writer):
        try:
            if mode == "tcp":
                t_reader, t_writer = await asyncio.open_unix_connection(target)
            else:
                host, port = target.rsplit(":", 1)
                t_reader, t_writer = await asyncio.open_connection(host, int(port))
        except OSError:
            writer.close()
            return
        await asyncio.gather(pipe(reader, t_writer), pipe(t_reader, writer))

    async def serve():
        if mode == "tcp":
            host, port = listen.rsplit(":", 1)
            server = await asyncio.start_server(handle, host, int(port), reuse_address=True)
        else:
            if os.path.exists(listen):
                os.unlink(listen)
            server = await asyncio.start_unix_server(handle, listen)
        async with server:
            await server.serve_forever()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
