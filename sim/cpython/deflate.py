"""CPython stand-in for MicroPython's built-in ``deflate`` module, on zlib: decompression only
(the firmware inflates deflated ruleset uploads), failing as MicroPython's does: a damaged
stream, or one that reaches further back than the window, raises OSError (EINVAL); input that
ends before the stream does raises EOFError."""
import errno
import zlib

AUTO = 0
RAW = 1
ZLIB = 2
GZIP = 3


class DeflateIO:
    """Reads the inflated bytes of ``stream`` (RAW with a window of ``2**wbits`` bytes, or ZLIB)."""

    def __init__(self, stream, format=AUTO, wbits=0, close=False):
        if format == RAW:
            self._inflater = zlib.decompressobj(-(wbits or 8))
        elif format == ZLIB:
            self._inflater = zlib.decompressobj(wbits or 15)
        else:
            raise NotImplementedError("the shim inflates RAW and ZLIB streams only")
        self._stream = stream
        self._pending = None  # input not inflated yet: the whole stream, read at the first read

    def readinto(self, buf):
        """Inflate a byte a call: zlib reaches back into the output it was given in the same
        call, so only then does a distance beyond the window fail, as it does in MicroPython."""
        inflater = self._inflater
        if self._pending is None:
            self._pending = self._stream.read()
        got = 0
        while got < len(buf) and not inflater.eof:
            try:
                out = inflater.decompress(self._pending, 1)
            except zlib.error as exc:
                raise OSError(errno.EINVAL, str(exc))
            self._pending = inflater.unconsumed_tail
            if not out:
                if not inflater.eof:
                    raise EOFError
                break
            buf[got] = out[0]
            got += 1
        return got

    def read(self, size):
        buf = bytearray(size)
        return bytes(buf[: self.readinto(buf)])
