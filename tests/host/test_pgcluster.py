"""The tests' throwaway PostgreSQL cluster: each test's database is its own and empty, and a
role's password is checked as on a real server."""
import psycopg
import pytest

import pgcluster


def test_each_database_is_new_and_empty(postgres_url):
    with psycopg.connect(postgres_url) as conn:
        tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0]
        conn.execute("CREATE TABLE marker (x integer)")
    assert tables == 0


def test_a_wrong_password_is_refused(postgres_cluster):
    postgres_cluster.create_role("club_member", "right horse")
    with psycopg.connect(postgres_cluster.url(user="club_member", password="right horse")) as conn:
        assert conn.execute("SELECT current_user").fetchone()[0] == "club_member"
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(postgres_cluster.url(user="club_member", password="wrong"))


def test_a_test_database_is_dropped_after_the_test(postgres_cluster):
    url = postgres_cluster.create_database()
    assert pgcluster.database_name(url) in postgres_cluster.database_names()
    postgres_cluster.drop_database(pgcluster.database_name(url))
    assert pgcluster.database_name(url) not in postgres_cluster.database_names()
