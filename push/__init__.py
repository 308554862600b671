"""Changes pushed to the pages' followers: a tournament page and its bracket, a match's
live part and live board, the JSON bracket's clients.

How (decided, README "Push"): Server-Sent Events under an ASGI server (uvicorn), through
the streams' own door (``push.front``: no Django request handler, middleware or thread
per stream), ONE Redis pub/sub subscription per serving process fanning each message
out in-process to the streams that process holds (``push.hub``), published after the
commit from the one place versions are bumped (``tournaments.page_versions`` →
``push.publish``). A message is "part P is at version V". For an anonymous reader of a
public part the event carries the part itself (``push.shared``): the stream's ``hello``
the whole answer, each version after it the changes from the answer that follower holds
(or the whole, when it holds none of the few versions before); that answer is the one
the part's own view gives an anonymous reader, byte for byte. Any other reader (signed
in, a tournament that is not public) is sent the version only and asks for the part
with its ETag as it does when it polls, so what a reader sees stays decided by the
existing views. Pages keep polling, slowly, while their stream is healthy, and as before
when it is not (``push/static/push/push.js``).

Why not Channels with channels-redis: its groups send each member's message through Redis
(``group_send`` to 10,000 followers is 10,000 channel writes per change), where one
subscription per process sends each change through Redis once; and SSE needs no protocol
beyond HTTP, passes through proxies that pass streaming answers, and EventSource
reconnects by itself.
"""
