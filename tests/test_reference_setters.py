"""A builder's chainable setters read from each language's method declarations: the methods that return
their own type (Java's `Cache<K, V>`, Go's `*Client`, Rust's `&mut Self`), never a static factory or a
constructor."""

from __future__ import annotations

from generator.repo.model import Symbol
from generator.repo.reference.builders import chainable_setters


def test_setters_are_read_from_each_language_s_declaration() -> None:
    java = [
        "public final class Cache<K, V> {",
        "  public static Cache<Object, Object> newBuilder() {",
        "  @CanIgnoreReturnValue",
        "  public Cache<K, V> maximumSize(long maximumSize) {",
        "  public Cache<K, V> recordStats() {",
        "  public long size() {",
    ]
    symbols = [
        Symbol("Cache.newBuilder", "method", 2, 2, parent="Cache"),
        Symbol("Cache.maximumSize", "method", 3, 4, parent="Cache"),
        Symbol("Cache.recordStats", "method", 5, 5, parent="Cache"),
        Symbol("Cache.size", "method", 6, 6, parent="Cache"),
    ]
    found = chainable_setters(java, symbols, "java")
    assert [(s.method.short_name, s.takes) for s in found] == [
        ("maximumSize", "long maximumSize"),
        ("recordStats", ""),
    ]
    go = [
        "func (c *Client) SetTimeout(d time.Duration) *Client {",
        "func (c *Client) SetRetryCount(n int) *Client {",
        "func (c *Client) Get(url string) (*Response, error) {",
    ]
    symbols = [
        Symbol("Client.SetTimeout", "method", 1, 1, parent="Client"),
        Symbol("Client.SetRetryCount", "method", 2, 2, parent="Client"),
        Symbol("Client.Get", "method", 3, 3, parent="Client"),
    ]
    assert [s.takes for s in chainable_setters(go, symbols, "go")] == ["d time.Duration", "n int"]
    rust = [
        "pub fn from_env(env: Env) -> Self {",
        "pub fn filter_level(&mut self, level: LevelFilter) -> &mut Self {",
        "pub fn is_test(&mut self, is_test: bool) -> &mut Self {",
    ]
    symbols = [
        Symbol(f"Builder.{n}", "method", i, i, parent="Builder")
        for i, n in enumerate(["from_env", "filter_level", "is_test"], 1)
    ]
    assert [s.takes for s in chainable_setters(rust, symbols, "rust")] == [
        "level: LevelFilter",
        "is_test: bool",
    ]
