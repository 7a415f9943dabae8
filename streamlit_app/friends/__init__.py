"""Tables of friends: one game, a link per seat, each player in their own browser.

``tables`` (a table link in this browser session, the store actions behind the buttons, the
live page), ``page`` (the table page a seat, the host or a spectator sees), ``host_panel``
(the host's powers), ``story`` (the log as each seat may read it), ``form`` (the "With
friends" part of the New game form), ``ai_worker`` (the AI seats, played on the server)
and ``live`` (the watcher that reruns the pages whose table changed). The games themselves
are kept by ``streamlit_app.store``."""
