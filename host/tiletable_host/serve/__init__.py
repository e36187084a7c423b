"""``tiletable serve``: the browser view of live tables and of the club's history."""
