/* Live table: one websocket per screen. It receives the state, and carries the phone's taps.
 *
 * - A tap is an htmx form (hx-post="act/<name>"). While the socket is open it goes over the
 *   socket ({"type": "act"}) and is answered by the change's own frame (its data-action is the
 *   tap's id), or by "done" (nothing new to send) or "error"; otherwise, or when no answer comes
 *   within a few seconds, it is posted over HTTP with the same action id (a tap is applied once,
 *   whichever way it arrives). One tap travels at a time, the others wait in this script's
 *   queue, never in htmx's (which drops a request whose form was re-rendered meanwhile).
 * - Every fragment root carries data-version; an older fragment never replaces a newer one.
 * - A change of HP, dying, a 桃, equipment, a delayed trick or the turn comes as a delta: a
 *   <template id="table-delta"> with just what it touched, that applies only on top of the
 *   version it names (data-base); otherwise the phone asks for the state. An HP change's delta
 *   holds the seat's HP tracker (#my-hp), which only that seat's own phone puts in place.
 * - On (re)connect the server sends the whole current state; a gap in public versions, or the
 *   phone waking up, asks for it again ({"type": "sync"}).
 * - The socket reconnects by itself, except when the server says the link is gone (4404).
 * - Pending taps, double taps, outcomes in doubt, heartbeat: docs/architecture.md.
 *
 * The page loads one file, js/live.js, joined from the parts in static/js/live/ in the order
 * companion/infra/staticstorage.py LIVE_PARTS lists (no build step: the static files finder joins
 * them, for collectstatic and for DEBUG alike). Every part between _begin.js and _end.js is a
 * fragment of the one function below: they share its variables (shared.js) as they did when
 * this was one file. help.js after it is a block of its own.
 */
(function () {
  'use strict';
