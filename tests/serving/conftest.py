"""What the serving tests that talk to Redis share: a key prefix of each test's own, and a proxy in front of Redis
that a test can cut or freeze. Each test module names the Redis database it uses (``REDIS_URL``)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis

from tests.serving.redis_proxy import RedisProxy


@pytest.fixture
def prefix(request: pytest.FixtureRequest) -> Iterator[str]:
    """A key prefix of this test's own: whatever else shares the Redis database (another run of the suite, another
    test) never meets its keys, which go when it ends."""
    prefix = f"test-{uuid.uuid4().hex}"
    yield prefix
    client = redis.Redis.from_url(request.module.REDIS_URL)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


@pytest.fixture
def proxy(request: pytest.FixtureRequest) -> Iterator[RedisProxy]:
    """A proxy to the module's Redis, cut (and answering again, if a test froze it) when the test ends."""
    proxy = RedisProxy(request.module.REDIS_URL)
    proxy.start()
    yield proxy
    proxy.thaw()
    proxy.cut()
