"""Every `/api/` route of the editor, listed from the app itself, refuses a
request without the editor's token (401) or with another (403), and changes
nothing: the rule runs before the handler (`ttr_core.edit.access`)."""

from __future__ import annotations

from conftest import TOKEN, Editor

from ttr_core.edit.access import EDITOR, TOKEN_HEADER
from ttr_core.web.routes import AdmittedRoute, admitted_routes

#: A value for each path parameter of the editor's routes.
PARAMETERS = {"{what}": "cities"}


def _requests(editor: Editor) -> list[tuple[str, str]]:
    found = []
    for route in admitted_routes(editor.client.app):
        if isinstance(route, AdmittedRoute) and route.access is EDITOR:
            path = route.path
            for name, value in PARAMETERS.items():
                path = path.replace(name, value)
            assert "{" not in path, f"no value for a parameter of {route.path}"
            found += [(method, path) for method in sorted(route.methods or ()) if method != "HEAD"]
    return found


def test_every_api_route_refuses_a_request_without_the_token(blank: Editor) -> None:
    blank.edit("add_city", name="Oslo", place=[59.91, 10.75])
    before = (blank.session.text, blank.session.revision, len(blank.session.undo_steps))
    requests = _requests(blank)
    assert len(requests) == 17
    for method, path in requests:
        for headers, status in (({}, 401), ({TOKEN_HEADER: TOKEN + "x"}, 403)):
            body = {"json": {"op": "delete_city", "name": "Oslo"}} if method == "POST" else {}
            answer = blank.client.request(method, path, headers=headers, **body)
            assert answer.status_code == status, (method, path, answer.text)
            assert "editor token" in answer.json()["error"]
    assert (blank.session.text, blank.session.revision, len(blank.session.undo_steps)) == before
    assert blank.get("/api/playtest").json() == {"state": "none"}  # nothing was started


def test_with_the_token_every_api_route_answers_past_its_rule(blank: Editor) -> None:
    for method, path in _requests(blank):
        answer = blank.client.request(
            method,
            path,
            headers={TOKEN_HEADER: TOKEN},
            **({"json": {}} if method == "POST" else {}),
        )
        assert answer.status_code not in (401, 403), (method, path, answer.text)
