"""Each thing a question asks of its subject is answered by the section of the defining document treating it
("…, and how are its trading fee and auction slot decided?": the trading fee's voting section and the
continuous auction's), quoted beside the passages the question takes as a whole, displacing none of them
(issue 30; s43's XRPL AMM report never quoted "4. Continuous Auction Mechanism")."""

from __future__ import annotations

from pathlib import Path

from topic_fakes import offline_report

from generator.topic import workspace as wsp
from generator.topic.allocation import allocate
from generator.topic.asked_sections import asked_parts, part_answers
from generator.topic.candidate import Candidate

TOPIC = "How does the Pool market maker work, and how are its trading fee and auction slot decided?"
FEE = "This proposal makes the TradingFee of a pool a votable parameter: every liquidity provider may vote."
AUCTION = (
    "A pool auctions off its trading advantages to arbitrageurs at a discounted TradingFee for a 24 hour slot, "
    "and any liquidity provider can bid for the auction slot."
)
FIELD = "We introduce a new object field AuctionSlot in the pool object associated with each pool."
POOL = (
    "# Pool market maker\n\n"
    "#### Abstract\n\nThe Pool market maker is a native exchange feature that pools liquidity for traders "
    "and pays liquidity providers.\n\n"
    "#### 1. Introduction\n\nMarket makers are agents that pool liquidity and make it available to traders "
    "according to a predetermined algorithm.\n\n"
    "#### 2. Creating a pool\n\nPoolCreate makes a pool holding two assets; only one pool exists for each "
    "pair of assets.\n\n"
    "##### 2.1. PoolDeposit\n\nPoolDeposit adds liquidity to a pool and returns LP tokens to the depositor.\n\n"
    f"#### 3. Governance: Trading Fee Voting Mechanism\n\n{FEE}\n\n"
    "The VoteSlots field keeps a track of up to eight active votes for the pool.\n\n"
    "##### 3.1. Vote entry\n\nEach vote entry names the voter, its vote weight and the fee it votes for.\n\n"
    f"#### 4. Continuous Auction Mechanism\n\n{AUCTION}\n\n"
    "##### 4.1. Mechanics\n\nThe bid price must adjust dynamically: it drops as the slot gets older.\n\n"
    "###### 4.1.1. Slot pricing\n\nThe minimum price to buy a slot for a 24-hour period is MinSlotPrice; the "
    "slot time is divided into 20 equal intervals.\n\n"
    f"###### 4.1.2. AuctionSlot field\n\n{FIELD}\n"
)
# other pages of the same collection, so that "pool", "fee" and "slot" weigh as words of one page
OTHERS = {
    f"page{n}.md": f"# Escrow {n}\n\n#### Overview\n\nAn escrow holds an amount {n} until a condition or a time "
    "is met, and its owner pays a reserve for it.\n"
    for n in range(5)
}


def test_a_part_joining_two_things_asks_each_of_them() -> None:
    assert asked_parts(TOPIC) == [{"market", "maker"}, {"trade", "fee"}, {"auction", "slot", "decid"}]
    assert asked_parts("Apollo 的 Namespace 是什么？有哪些类型和权限？") == [{"类型"}, {"权限"}]
    # a part asking only what the subject is names nothing more; a topic asking one question has no parts
    assert asked_parts("What are Frame tags, and what limits apply to client-only tags?") == [
        {"limit", "client", "onli"}
    ]
    assert asked_parts("How does the Pool market maker work?") == []
    # what a thing is, the outline's definition answers: "HTTP/2 is RECOMMENDED…" opens "Settlement Engine API"
    settle = "How do Interledger peers settle their balances, and what is a settlement engine?"
    assert all("engin" not in words for words in asked_parts(settle))


def test_each_part_is_answered_by_the_opening_of_the_outermost_section_treating_it() -> None:
    source = wsp.RawSource("local-p", "local", "local:pool.md", "Pool market maker", "p", POOL, kind="local")
    found = part_answers(TOPIC, [source])
    # no heading but the title's names the market maker: the outline answers how it works
    assert [(c.part, c.text) for c in found] == [(2, FEE), (3, AUCTION)]
    # "4.1.2. AuctionSlot field" names both words of the auction slot, and details what "4." says
    assert all(c.text != FIELD for c in found)
    # no section treats a part whose words no heading names
    assert part_answers("How does the Pool market maker work, and how is it audited?", [source]) == []


def test_a_part_answer_is_added_to_the_questions_own_passages_moving_none() -> None:
    whole = Candidate("Market makers pool liquidity for traders.", "local-p", 1.0, 0.9, 0.0, treats=True)
    create = Candidate("PoolCreate makes a pool holding two assets.", "local-p", 1.0, 0.8, 0.0, treats=True)
    deposit = Candidate("PoolDeposit adds liquidity to a pool.", "local-p", 1.0, 0.8, 0.0, treats=True)
    fee = Candidate(FEE, "local-p", 1.0, 0.7, 0.0, treats=True)
    how = "How does the Pool market maker work?"
    before = allocate({TOPIC: [whole, create], how: [fee, deposit]}, first={TOPIC}, limit=2)
    assert [c.text for c in before[TOPIC]] == [whole.text, create.text]
    assert {c.text for c in before[how]} == {FEE, deposit.text}
    answers = [
        Candidate(FEE, "local-p", 1.0, 0.5, 0.0, treats=True, part=2),
        Candidate(AUCTION, "local-p", 1.0, 0.5, 0.0, treats=True, part=3),
    ]
    pools = {TOPIC: [*answers, whole, create], how: [fee, deposit]}
    chosen = allocate(pools, first={TOPIC}, limit=2)
    # the question keeps the two passages it takes whole and adds the answer to the part quoted nowhere yet;
    # the trading fee's is quoted already, under how it works, and stays there
    assert [c.text for c in chosen[TOPIC]] == [whole.text, create.text, AUCTION]
    assert {c.text for c in chosen[how]} == {FEE, deposit.text}
    # a part answer said already elsewhere (the report's definition) is not quoted again
    chosen = allocate(pools, first={TOPIC}, limit=2, used={AUCTION})
    assert [c.text for c in chosen[TOPIC]] == [whole.text, create.text]
    # with the fee quoted nowhere else, both parts are answered under the question
    chosen = allocate({TOPIC: [*answers, whole, create], how: [deposit]}, first={TOPIC}, limit=2)
    assert [c.text for c in chosen[TOPIC]] == [whole.text, create.text, FEE, AUCTION]


def test_the_report_answers_each_asked_part_from_the_section_treating_it(kb_root: Path) -> None:
    report = offline_report(kb_root, {"pool.md": POOL, **OTHERS}, TOPIC)
    sections = dict(part.split("\n", 1) for part in report.split("\n## ")[1:])
    (asked,) = [body for heading, body in sections.items() if heading.startswith(TOPIC[:40])]
    # main: the auction's section was stored and quoted nowhere
    assert "auctions off its trading advantages" in asked
    # the trading fee's section is quoted where the outline put it, once
    assert report.count("votable parameter") == 1 + ("votable parameter" in sections["Summary"])
