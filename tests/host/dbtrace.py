"""Seeing every statement the tool sends to its database, on either engine: sqlite3's trace
callback, or psycopg's ``Connection.execute`` (the one way db.py sends a statement)."""
import sqlite3


def trap_statements(on_statement):
    """Every connection the tool opens in this process (a forked child's, or a test's with the
    patch undone after it) calls ``on_statement(sql)`` as each of its statements starts; the
    function that undoes it."""
    import psycopg

    connect = sqlite3.connect
    execute = psycopg.Connection.execute

    def traced_connect(*args, **kwargs):
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(lambda sql: on_statement(sql.lstrip()))
        return conn

    def traced_execute(conn, query, *args, **kwargs):
        on_statement(str(query).lstrip())
        return execute(conn, query, *args, **kwargs)

    sqlite3.connect = traced_connect
    psycopg.Connection.execute = traced_execute

    def undo():
        sqlite3.connect = connect
        psycopg.Connection.execute = execute

    return undo
