"""A section whose heading names no facet answers the facet its opening treats (topic/content_facets.py)."""

from __future__ import annotations

from generator.text.words import tokens
from generator.topic.content_facets import content_facets
from generator.topic.facet_sections import treating

DAO = """# Deposit and Withdraw in Nervos DAO

This document describes the details of Nervos DAO deposit and withdraw transaction.

## Motivation

Nervos DAO provides a dilution counter-measure for CKByte holders.

## Deposit

Users can send a transaction to deposit CKBytes into Nervos DAO at any time. To deposit to Nervos DAO, one needs \
to create any transaction containing a new output cell with the following requirements:

- MUST use the Nervos DAO script as type script.
- MUST have 8 bytes length cell data, filled with all zeros.

## Withdraw

Users can send a transaction to withdraw deposited CKBytes at any time. Unlike the deposit, withdrawal is a \
2-phase process:

- In phase 1, the first transaction transforms a deposit cell into a withdrawing cell.
- In phase 2, a second transaction unlocks and transfers CKBytes in the withdrawing cell to the recipient.

## Gotchas

Nervos DAO only supports absolute epoch number as since value in the withdrawal process.
"""

SHUTDOWN = """Hertz 支持优雅退出，优雅退出过程如下：

- 设置 engine 状态为 closed
- 顺序非阻塞触发回调函数 OnShutDown，等待回调函数执行完成或者超时返回
- 注册中心注销对应服务

如需修改等待超时时间，可通过 server.WithExitWaitTime() 进行配置。
"""

MIDDLEWARE = """# 中间件概览

Hertz 的中间件主要分为客户端中间件与服务端中间件。

#### 服务端中间件

Hertz 服务端中间件是 HTTP 请求－响应周期中的一个函数，提供了一种方便的机制来检查和过滤进入应用程序的 HTTP 请求。

中间件可以在请求更深入地传递到业务逻辑之前或之后执行：

- 中间件可以在请求到达业务逻辑之前执行，比如执行身份认证和权限认证。
- 中间件可以在执行过业务逻辑之后执行，比如记录响应时间和从异常中恢复。

#### 客户端中间件

客户端中间件实现和服务端中间件不同。Client 侧无法拿到中间件 index 实现递增。
"""


def _headings(text: str, facet: str, concepts: list[set[str]], title: str) -> list[str]:
    found = treating(text, facet, concepts, tokens, own_headings=True, title=title)
    return [section.heading for section, _ in found]


def test_a_section_headed_by_the_subjects_term_answers_what_its_opening_treats() -> None:
    concepts = [{"deposit"}, {"withdraw", "withdrawal"}]
    title = "Deposit and Withdraw in Nervos DAO"
    # "To deposit…, one needs to create…" with its requirements: how deposit is used
    assert "Deposit" in _headings(DAO, "use", concepts, title)
    # "…withdrawal is a 2-phase process:" and its phases: how withdrawal works
    assert "Withdraw" in _headings(DAO, "how", concepts, title)
    # neither is a definition, and neither is where its limits are
    assert not {"Deposit", "Withdraw"} & set(_headings(DAO, "what", concepts, title))
    assert not {"Deposit", "Withdraw"} & set(_headings(DAO, "limits", concepts, title))


def test_a_page_with_no_heading_answers_how_it_works_from_its_process() -> None:
    concepts = [{"优雅"}, {"退出"}]
    assert [""] == _headings(SHUTDOWN, "how", concepts, "优雅退出")
    assert [""] == _headings(SHUTDOWN, "use", concepts, "优雅退出")  # 如需…，可通过…进行配置


def test_a_section_defining_its_own_term_answers_what_the_subject_is() -> None:
    concepts = [{"中间件"}]
    found = _headings(MIDDLEWARE, "what", concepts, "中间件概览")
    assert "服务端中间件" in found  # "Hertz 服务端中间件是…一个函数"
    assert "客户端中间件" not in found  # "客户端中间件实现和服务端中间件不同": no definition


def test_only_a_lead_in_announcing_a_process_says_how_it_works() -> None:
    assert content_facets("", ["优雅退出过程如下：\n- 设置 engine 状态为 closed"]) == {"how"}
    assert content_facets(
        "Withdraw", ["Withdrawal is a 2-phase process:", "- In phase 1, …\n- In phase 2, …"]
    ) == {"how"}
    # advantages and options are no steps, whatever name their lead-in holds (二阶段消息: two-phase messages)
    assert content_facets("", ["两者对比，二阶段消息有以下优点：\n- 无需学习或维护任何消息队列"]) == set()
    assert content_facets("", ["Gin 提供了两组绑定方法：\n- c.Bind\n- c.ShouldBind"]) == set()
