"""The club's organiser in the browser: signing in with the PC's organiser password
(``tiletable organiser set-password``), and ``Organiser.write``, the one guard every page that
changes something goes through.

The sign-in is a cookie signed (itsdangerous) with the secret kept beside the password's hash;
it holds a random token that every form of the session carries back (a page of another site
cannot read it, so it cannot send a form in the organiser's name). The password file is read at
each request: a password set, changed or cleared while the server runs is in force at once.
"""
import secrets
from urllib.parse import parse_qsl

from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.concurrency import run_in_threadpool
from starlette.responses import RedirectResponse
from starlette.routing import Route

from tiletable_host import organiser as settings
from tiletable_host.errors import CommandError

COOKIE = "tiletable_organiser"
SIGNED_IN_FOR = 12 * 3600  # seconds: a club night; then the organiser signs in again
MAX_FORM = 16 * 1024  # bytes: a form of names, not a file
SIGN_IN = "/organiser/sign-in"

NO_PASSWORD = "No organiser password is set on this PC: run `tiletable organiser set-password` on it, then sign in."
NOT_SIGNED_IN = "Only the club's organiser can change this: sign in at %s first." % SIGN_IN
STALE_FORM = "This form is out of date (its security token does not match): reload the page and send it again."


class FormTooLarge(Exception):
    pass


async def read_form(request):
    """A url-encoded form's fields (the last of each name); anything else is no form.

    :raises FormTooLarge: past MAX_FORM bytes."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/x-www-form-urlencoded":
        return {}
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM:
            raise FormTooLarge()
    return dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))


def local_path(path):
    """``path`` if it is a page of this site (where to go after signing in), else the players'."""
    if path.startswith("/") and not path.startswith("//") and "\\" not in path:
        return path
    return "/history/players"


class Organiser:
    """Who may change things: ``context`` for a page's forms, ``write`` around each route that
    changes something, ``routes`` for signing in and out. ``page(template, status, **context)``
    renders a page; ``path`` is the organiser password file (default: the PC's)."""

    def __init__(self, page, path=None):
        self.page = page
        self.path = path

    def _secret(self):
        """The signing secret, or None while no password is set (nothing can be signed in)."""
        found = settings.load(self.path)
        return found and found["secret"]

    def _signer(self, secret):
        return URLSafeTimedSerializer(secret, salt="tiletable organiser sign-in")

    def session(self, request, secret):
        """The cookie's ``{"csrf", "organiser"}`` when signed with ``secret`` and not too old, else {}."""
        cookie = request.cookies.get(COOKIE)
        if not cookie or not secret:
            return {}
        try:
            found = self._signer(secret).loads(cookie, max_age=SIGNED_IN_FOR)
        except BadSignature:  # another secret (a new password), tampered with, or expired
            return {}
        return found if isinstance(found, dict) and isinstance(found.get("csrf"), str) else {}

    def context(self, request):
        """What a page needs to show or hide its organiser's forms: ``organiser`` (signed in),
        ``csrf`` (the token its forms carry)."""
        try:
            session = self.session(request, self._secret())
        except CommandError:
            session = {}
        return {"organiser": bool(session.get("organiser")), "csrf": session.get("csrf", "")}

    def _remember(self, response, request, secret, **session):
        response.set_cookie(COOKIE, self._signer(secret).dumps(session), max_age=SIGNED_IN_FOR, httponly=True,
                            samesite="lax", secure=request.url.scheme == "https")
        return response

    def _refused(self, message, status=403):
        return self.page("message.html", status, title="Organiser", message=message)

    def _check(self, request, form, secret, signed_in=True):
        """Why this form may not be taken, or None: no password, not signed in, a stale token."""
        if not secret:
            return NO_PASSWORD
        session = self.session(request, secret)
        if signed_in and not session.get("organiser"):
            return NOT_SIGNED_IN
        token = form.get("csrf", "")
        if not session or not token or not secrets.compare_digest(token, session["csrf"]):
            return STALE_FORM
        return None

    def write(self, endpoint):
        """``endpoint`` for the signed-in organiser only: any other POST is refused with 403 and
        one line saying why. The endpoint finds the form's fields in ``request.state.form``."""

        async def guarded(request):
            try:
                form = await read_form(request)
                refusal = self._check(request, form, self._secret())
            except FormTooLarge:
                return self._refused("That form is too large to be a change of names.", 413)
            except CommandError as exc:  # an unreadable password file
                return self._refused(str(exc), 500)
            if refusal:
                return self._refused(refusal)
            request.state.form = form
            return await run_in_threadpool(endpoint, request)

        return guarded

    async def sign_in(self, request):
        try:
            stored = settings.load(self.path)
        except CommandError as exc:
            return self._refused(str(exc), 500)
        secret = stored and stored["secret"]
        session = self.session(request, secret)
        if request.method == "GET":
            return self._sign_in_page(request, secret, session, local_path(request.query_params.get("next", "")))
        try:
            form = await read_form(request)
        except FormTooLarge:
            return self._refused("That form is too large to be a password.", 413)
        refusal = self._check(request, form, secret, signed_in=False)
        if refusal:
            return self._refused(refusal)
        target = local_path(form.get("next", ""))
        password = form.get("password", "")
        if not await run_in_threadpool(settings.matches, stored["password"], password):
            return self._sign_in_page(request, secret, session, target, "That is not the organiser password.", 403)
        response = RedirectResponse(target, status_code=303)
        return self._remember(response, request, secret, csrf=secrets.token_urlsafe(32), organiser=True)  # a new token

    def _sign_in_page(self, request, secret, session, target, problem="", status=200):
        csrf = session.get("csrf") or secrets.token_urlsafe(32)
        response = self.page("organiser.html", status, title="Organiser", password_set=bool(secret), problem=problem,
                             organiser=bool(session.get("organiser")), csrf=csrf, next=target)
        if secret and not session:
            self._remember(response, request, secret, csrf=csrf, organiser=False)  # the sign-in form's own token
        return response

    async def sign_out(self, request):
        try:
            form = await read_form(request)
            secret = self._secret()
        except (FormTooLarge, CommandError):
            form, secret = {}, None
        if self.session(request, secret) and self._check(request, form, secret, signed_in=False):
            return self._refused(STALE_FORM)
        response = RedirectResponse(SIGN_IN, status_code=303)
        response.delete_cookie(COOKIE)
        return response

    def routes(self):
        return [Route(SIGN_IN, self.sign_in, methods=["GET", "POST"]), Route("/organiser/sign-out", self.sign_out, methods=["POST"])]
