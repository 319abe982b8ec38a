"""The host's board corrections through the API: each is a logged action the history words and undo takes back;
a Bohnanza hand correction tells the public view, the history and the other phones nothing of the bean."""

from __future__ import annotations

import json


def host_act(client, seated, action):
    state_id = client.get(f"/api/sessions/{seated.id}/public").json()["state_id"]
    return client.post(f"/api/host/sessions/{seated.id}/actions",
                       json={"token": seated.host, "state_id": state_id, "action": action})


def host_data(client, seated):
    return client.get(f"/api/host/sessions/{seated.id}", params={"token": seated.host}).json()


def history(client, seated):
    return client.get(f"/api/host/sessions/{seated.id}/history", params={"token": seated.host}).json()["entries"]


def undo(client, seated):
    state_id = client.get(f"/api/sessions/{seated.id}/public").json()["state_id"]
    response = client.post(f"/api/host/sessions/{seated.id}/undo", json={"token": seated.host, "state_id": state_id})
    assert response.status_code == 200, response.text


def view(client, seated, seat):
    return client.get(f"/api/sessions/{seated.id}/view", params={"token": seated.tokens[seat]}).json()


def test_a_hand_correction_reaches_only_its_player_and_undo_takes_it_back(client, new_session):
    seated = new_session("bohnanza", 3, names=["Ann", "Bo", "Cy"])
    hand = [c["card"] for c in view(client, seated, 1)["view"]["me"]["hand"]]
    before_public = client.get(f"/api/sessions/{seated.id}/public").json()
    data = host_data(client, seated)
    form = data["corrections"]["correct_hand"]
    assert [f["name"] for f in form["fields"]] == ["player", "bean", "change"]
    beans = [c["value"] for c in form["fields"][1]["choices"]]
    # A bean no hand of the others holds, so finding its name anywhere public would be the leak.
    shown = {json.dumps(view(client, seated, s)) for s in (0, 2)} | {json.dumps(before_public)}
    bean = next(b for b in beans if all(f'"{b}' not in text for text in shown))
    response = host_act(client, seated, {"seat": "host", "action": "correct_hand", "player": 1, "bean": bean,
                                         "change": "add"})
    assert response.status_code == 200, response.text
    public = client.get(f"/api/sessions/{seated.id}/public").json()
    entry = history(client, seated)[-1]
    assert entry["action"] == {"seat": "host", "action": "correct_hand"}
    assert entry["text"] == "The host corrected the hand of Bo: 6 cards now"
    for text in (json.dumps(public), json.dumps(entry), json.dumps(view(client, seated, 0)),
                 json.dumps(view(client, seated, 2))):
        assert f'"{bean}' not in text and f"{bean}-" not in text
    own = [c["card"] for c in view(client, seated, 1)["view"]["me"]["hand"]]
    assert own[:-1] == hand and own[-1].startswith(f"{bean}-")  # the player's own phone shows the new card
    undo(client, seated)
    assert [c["card"] for c in view(client, seated, 1)["view"]["me"]["hand"]] == hand


def test_a_field_correction_is_public_and_undone(client, new_session):
    seated = new_session("bohnanza", 3, names=["Ann", "Bo", "Cy"])
    form = host_data(client, seated)["corrections"]["correct_field"]
    choice = form["fields"][0]["choices"][0]
    assert choice["value"] == {"player": 0, "field": 0}
    assert choice["label"] == {"template": "{player}, field {field}: empty", "params": {"player": 0, "field": 1}}
    response = host_act(client, seated, {"seat": "host", "action": "correct_field", **choice["value"],
                                         "bean": "stink", "count": 2})
    assert response.status_code == 200, response.text
    assert history(client, seated)[-1]["text"] == "The host set field 1 of Ann to Stink × 2"
    refused = host_act(client, seated, {"seat": "host", "action": "correct_field", "player": 0, "field": 0,
                                        "bean": "stink", "count": 2})
    assert refused.status_code == 409 and "holds 2 stink cards already" in refused.json()["error"]
    undo(client, seated)
    form = host_data(client, seated)["corrections"]["correct_field"]
    assert form["fields"][0]["choices"][0]["label"]["template"] == "{player}, field {field}: empty"


def test_power_grid_board_corrections_through_the_api(client, new_session):
    seated = new_session("power_grid", 3, names=["Ann", "Bo", "Cy"])
    assert "correct_house" not in host_data(client, seated)["corrections"]  # no board before the regions
    regions = host_data(client, seated)["host_legal"][0]
    assert host_act(client, seated, regions).status_code == 200
    forms = host_data(client, seated)["corrections"]
    assert {"adjust_money", "correct_house", "move_plant", "swap_plants"} <= set(forms)
    city = forms["correct_house"]["fields"][2]["choices"][0]["value"]
    response = host_act(client, seated, {"seat": "host", "action": "correct_house", "player": 2, "city": city,
                                         "change": "add"})
    assert response.status_code == 200, response.text
    public = client.get(f"/api/sessions/{seated.id}/public").json()
    assert history(client, seated)[-1]["text"].startswith("The host added a house of Cy in ")
    assert public["view"]["players"][2]["cities"] == 1 and len(public["view"]["players"][2]["network"]) == 1
    response = host_act(client, seated, {"seat": "host", "action": "move_plant", "plant": 3, "owner": 0})
    assert response.status_code == 200, response.text
    forms = host_data(client, seated)["corrections"]
    labels = {c["value"]: c["label"] for c in forms["swap_plants"]["fields"][0]["choices"]}
    assert labels[3] == {"template": "plant {plant} ({player})", "params": {"plant": 3, "player": 0}}
    assert [c["value"] for c in forms["correct_stock"]["fields"][0]["choices"]] == [3]
    undo(client, seated)
    undo(client, seated)
    public = client.get(f"/api/sessions/{seated.id}/public").json()
    assert public["view"]["players"][2]["cities"] == 0
    assert 3 in [p["plant"] for p in public["view"]["market"]["current"]]
