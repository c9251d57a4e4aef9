"""The memory page's routes: plain HTML forms, Jinja templates with autoescape, no script of ours.

``build_app(source)`` serves one ``Source`` (app/ui/source.py): the local data
dir or the server's store. GETs read; every change is a POST from the page's
own origin with the session's CSRF token (app/ui/security.py); forget and
delete-all are rate-limited per user.
An operator identity gets the knowledge base and per-user counts, nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from app.ui import actions, views, why
from app.ui.operator import operator_view
from app.ui.plot import trend_plot
from app.ui.security import (
    CSRF_FIELD,
    SESSION_COOKIE,
    UNSAFE,
    RateLimit,
    StrictHeaders,
    csrf_ok,
    csrf_token,
    same_origin,
    session_of,
)
from app.ui.source import Identity, NotAllowed, ServerSource, Source, UserMemory
from memory.upkeep.items import read_state
from nodes.input_check import InvalidInput

HERE = Path(__file__).parent
Handler = Callable[[Request], Awaitable[Response]]


def build_app(source: Source, limit: RateLimit | None = None) -> Starlette:
    """The page for ``source``; ``limit`` caps forget and delete-all per user."""
    pages = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True))
    limit = limit or RateLimit()

    def render(request: Request, name: str, status: int = 200, **data: Any) -> Response:
        session, fresh = session_of(request.cookies.get(SESSION_COOKIE))
        token = csrf_token(session, getattr(request.state, "user", ""))
        base = str(request.scope.get("root_path", "")).rstrip("/")
        html = pages.get_template(name).render(base=base, csrf=token, csrf_field=CSRF_FIELD, **data)
        response = HTMLResponse(html, status_code=status)
        if fresh:
            response.set_cookie(SESSION_COOKIE, session, path=base or "/", httponly=True, samesite="strict")
        return response

    async def who(request: Request) -> Identity:
        if isinstance(source, ServerSource):
            await source.ready()
        return source.identity(request.headers.get("authorization"))

    def page(fn: Callable[[Request, Identity], Awaitable[Response]], *, post: bool = False,
             destructive: bool = False, operator_ok: bool = False) -> Handler:
        """Identity, CSRF, rate limit and one-line errors around a route."""
        async def handler(request: Request) -> Response:
            try:
                if request.method in UNSAFE and not same_origin(request.headers):
                    return render(request, "error.html", 403, error="a request from another site: nothing was changed")
                ident = await who(request)
                request.state.user = ident.user
                if ident.operator and not operator_ok:
                    raise NotAllowed("an operator sees the knowledge base and per-user counts only, no user content")
                if post:
                    form = await request.form()
                    if not csrf_ok(request.cookies.get(SESSION_COOKIE), ident.user, str(form.get(CSRF_FIELD) or "")):
                        return render(request, "error.html", 403,
                                      error="missing or wrong CSRF token: nothing was changed")
                if destructive and not limit.allow(ident.user):
                    return render(request, "error.html", 429, error="too many deletions in a minute; try again soon")
                return await fn(request, ident)
            except NotAllowed as err:
                return render(request, "error.html", 403, error=str(err))
            except (views.BadRequest, InvalidInput) as err:
                return render(request, "error.html", 400, error=str(err))
        return handler

    async def mine(ident: Identity, fn: Callable[[UserMemory], Any]) -> Any:
        return await source.run(lambda: fn(source.open(ident.user)))

    async def form(request: Request) -> dict[str, str]:
        return {k: str(v) for k, v in (await request.form()).items()}

    async def home(request: Request, ident: Identity) -> Response:
        if ident.operator:
            return render(request, "operator.html", data=await source.run(lambda: operator_view(source.raw_store())),
                          user=ident.user)

        def read(mem: UserMemory) -> dict[str, Any]:
            data = views.export(mem)
            return {"profile": views.profile_rows(data), "facts": views.list_page(mem, "facts", "", "1"),
                    "people": views.list_page(mem, "people", "", "1"),
                    "memory_on": data["memory_enabled"], "messages": data["messages"]["total"],
                    "counts": {k: len(data[k]) for k in ("facts", "people", "episodes", "rules", "memory_files")}}
        return render(request, "home.html", user=ident.user, **await mine(ident, read))

    async def listing(request: Request, ident: Identity) -> Response:
        kind, q = request.path_params["kind"], request.query_params.get("q")
        found = await mine(ident, lambda m: views.list_page(m, kind, q, request.query_params.get("page")))
        return render(request, "items.html", user=ident.user, title=views.KINDS[kind], list=found)

    async def message(request: Request, ident: Identity) -> Response:
        msg = await mine(ident, lambda m: views.message(m, request.path_params["key"]))
        return render(request, "message.html", user=ident.user, msg=msg)

    async def why_page(request: Request, ident: Identity) -> Response:
        q = views.check_query(request.query_params.get("q"))
        found = await mine(ident, lambda m: why.explain(m, q)) if q else None
        return render(request, "why.html", user=ident.user, q=q, why=found)

    async def reviews(request: Request, ident: Identity) -> Response:
        pending = await mine(ident, actions.pending_reviews)
        return render(request, "reviews.html", user=ident.user, pending=pending,
                      local=not isinstance(source, ServerSource))

    async def answer(request: Request, ident: Identity) -> Response:
        f = await form(request)
        done = await mine(ident, lambda m: actions.answer_review(m, f.get("thread"), f.get("approve")))
        return render(request, "done.html", user=ident.user, done=done)

    async def forget_preview(request: Request, ident: Identity) -> Response:
        f = await form(request)

        def preview(mem: UserMemory) -> dict[str, Any]:
            if f.get("kind"):
                return actions.preview_forget(mem, views.item_text(mem, f["kind"], f.get("key", "")), item=True)
            return actions.preview_forget(mem, f.get("text"))
        return render(request, "forget.html", user=ident.user, preview=await mine(ident, preview))

    async def forget(request: Request, ident: Identity) -> Response:
        f = await form(request)
        report = await mine(ident, lambda m: actions.do_forget(m, f.get("text")))
        return render(request, "done.html", user=ident.user, done=str(report))

    async def delete_all(request: Request, ident: Identity) -> Response:
        f = await form(request)
        report = await mine(ident, lambda m: actions.delete_all(m, f.get("confirm")))
        return render(request, "done.html", user=ident.user, done=str(report))

    async def consent(request: Request, ident: Identity) -> Response:
        f = await form(request)
        on = await mine(ident, lambda m: actions.set_consent(m, f.get("memory")))
        return render(request, "done.html", user=ident.user, done=f"long-term memory {'on' if on else 'off'}")

    async def correct(request: Request, ident: Identity) -> Response:
        f = await form(request)
        stored = await mine(ident, lambda m: actions.correct_profile(m, f.get("key"), f.get("text")))
        return RedirectResponse(f"{request.scope.get('root_path', '')}/?corrected={len(stored)}", status_code=303)

    async def export(request: Request, ident: Identity) -> Response:
        data = await mine(ident, views.export)
        body = json.dumps(data, indent=2, ensure_ascii=False)
        return Response(body, media_type="application/json",
                        headers={"content-disposition": 'attachment; filename="memory-export.json"'})

    async def upkeep(request: Request, ident: Identity) -> Response:
        state = await mine(ident, lambda m: read_state(m.env))
        return render(request, "upkeep.html", user=ident.user, state=state, plot=trend_plot(state.get("trend", [])))

    routes = [
        Route("/", page(home, operator_ok=True)),
        Route("/list/{kind}", page(listing)),
        Route("/message/{key:path}", page(message)),
        Route("/why", page(why_page)),
        Route("/reviews", page(reviews)),
        Route("/reviews", page(answer, post=True), methods=["POST"]),
        Route("/profile", page(correct, post=True), methods=["POST"]),
        Route("/forget/preview", page(forget_preview, post=True), methods=["POST"]),
        Route("/forget", page(forget, post=True, destructive=True), methods=["POST"]),
        Route("/delete-all", page(delete_all, post=True, destructive=True), methods=["POST"]),
        Route("/consent", page(consent, post=True), methods=["POST"]),
        Route("/export", page(export)),
        Route("/upkeep", page(upkeep)),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(StrictHeaders)])
