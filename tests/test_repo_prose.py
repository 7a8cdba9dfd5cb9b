"""Docstrings and doc comments become clean prose: real-shaped inputs from Python, Go and JS libraries."""

from __future__ import annotations

import pytest

from generator.repo.analyze.describe import first_sentence, lead
from generator.repo.facts.prose import summary

REST_MODULE = """
requests.sessions
~~~~~~~~~~~~~~~~~

This module provides a Session object to manage and persist settings across
requests (cookies, auth, proxies).
"""
REST_ROLES = """Constructs and sends a :class:`Request <Request>`.

    :param method: method for the new :class:`Request` object.
    :return: :class:`Response <Response>` object
    :rtype: requests.Response
"""
ROLE_AT_LINE_START = """A parameter to a command comes in two versions: they are either
    :class:`Option`\\\\s or :class:`Argument`\\\\s.  Other subclasses are currently
    not supported by design.

    :param param_decls: the parameter declarations for this option or argument.
"""
LIST_ANNOUNCED = """Click in three points:

-   arbitrary nesting of commands
-   automatic help page generation
-   supports lazy loading of subcommands at runtime
"""
GOOGLE = """Fetch rows from a table,
    wrapped over two lines.

    Args:
        table: the table.

    Returns:
        The rows.
"""
NUMPY = """Solve the equation.

Parameters
----------
x : int
    The unknown.
"""
LICENCE_UNDER_NAME = """express
Copyright(c) 2009-2013 TJ Holowaychuk
Copyright(c) 2013 Roman Shtylman
MIT Licensed"""
BADGES_AND_INSTALL = """# Widget

[![Build](https://ci.example/badge.svg)](https://ci.example)

pip install widget

Widget does ``bar`` with *emphasis* and `links <https://example.org>`_, e.g. for a build system.
"""
OVERLINED = """=====
Title
=====

Body text here.
"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            REST_MODULE,
            "This module provides a Session object to manage and persist settings across requests "
            "(cookies, auth, proxies).",
        ),
        (REST_ROLES, "Constructs and sends a Request."),
        (
            ROLE_AT_LINE_START,
            "A parameter to a command comes in two versions: they are either Options or Arguments. "
            "Other subclasses are currently not supported by design.",
        ),
        (
            LIST_ANNOUNCED,
            "Click in three points: Arbitrary nesting of commands; automatic help page generation; "
            "supports lazy loading of subcommands at runtime.",
        ),
        (GOOGLE, "Fetch rows from a table, wrapped over two lines."),
        (NUMPY, "Solve the equation."),
        (BADGES_AND_INSTALL, "Widget does bar with emphasis and links, e.g. for a build system."),
        (OVERLINED, "Body text here."),
    ],
)
def test_docstrings_become_clean_sentences(text: str, expected: str) -> None:
    assert summary(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        LICENCE_UNDER_NAME,
        "Copyright (c) 2009-2013 The Authors. All rights reserved.\nUse of this source code is governed by a BSD",
        "SPDX-License-Identifier: Apache-2.0",
        "go:build windows\n+build windows",
        "-*- coding: utf-8 -*-",
        ":param x: only a field\n:returns: nothing",
        "////////////////////////// PARSE //////////////////////////////",  # a comment banner
        "========== Helpers ==========",
        "NOTE: sanitize is deprecated since version 0.7.0 and will be removed.",  # only a remark (it crashed)
        # ASCII art, then the licence (nlohmann/json's file header)
        "    __ _____ _____ _____\n __|  |   __|     |   | |  JSON for Modern C++\n|  |  |__   |  |  | | | |  version"
        " 3.11.3\n|_____|_____|_____|_|___|  https://github.com/nlohmann/json\n\nSPDX-License-Identifier: MIT",
        # JSDoc tags only, one running on (prettier's comments/print.js read "Filter?: (comment) => boolean, }}")
        '@import AstPath from "./ast-path.js"\n@typedef {{\n  filter?: (comment) => boolean,\n}} PrintOptions',
        # an Apache header licensing the file "to you" (logstash): its 'Unless required…' paragraph was a summary
        "Licensed to Example B.V. under one or more contributor\nlicense agreements. Example B.V. licenses this"
        ' file to you under\nthe Apache License, Version 2.0 (the "License"); you may\nnot use this file except'
        " in compliance with the License.\n\n  http://www.apache.org/licenses/LICENSE-2.0\n\nUnless required by"
        " applicable law or agreed to in writing,\nsoftware distributed under the License is distributed on an\n"
        '"AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY\nKIND, either express or implied.',
        "",
    ],
)
def test_boilerplate_is_not_prose(text: str) -> None:
    assert summary(text) == ""


def test_a_credit_for_where_the_code_came_from_is_not_what_it_does() -> None:
    # chi's file comments: the subsystem pages read them as the Middleware and Context descriptions
    assert (
        summary(
            "Ported from Goji's middleware, source:\nhttps://github.com/zenazn/goji/tree/master/web/middleware"
        )
        == ""
    )
    credit = (
        "Radix tree implementation below is a based on the original work by\nArmon Dadgar in"
        " https://github.com/armon/go-radix/blob/master/radix.go\n(MIT licensed). It's been heavily modified.\n\n"
        "The tree routes a request path to its handler."
    )
    assert summary(credit) == "The tree routes a request path to its handler."
    assert summary("The original work was derived from Goji's middleware, source: https://x.test/goji.") == ""
    # reselect's weakMapMemoize.ts opens on where its cache comes from
    assert (
        summary(
            "Original source:\n- https://github.com/facebook/react/blob/0b97441/packages/react/src/ReactCache.js"
        )
        == ""
    )
    # words of the same kind about what the code does are kept
    assert (
        summary("The key is derived from the secret and the salt.")
        == "The key is derived from the secret and the salt."
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # deepdiff's combine_hashes_lists
            "\n    Combines lists of hashes into one hash\n    This can be optimized in future.\n"
            "    It needs to work with both murmur3 hashes (int) and sha256 (str)\n",
            "Combines lists of hashes into one hash. This can be optimized in future.",
        ),
        (  # OpenHands' state tracker
            "Deep copy of metrics\nThis serves as a snapshot for the parent's metrics",
            "Deep copy of metrics. This serves as a snapshot for the parent's metrics.",
        ),
        ("Return the value of the\nPython object.", "Return the value of the Python object."),
        ("Compute the total of\nThe values given.", "Compute the total of The values given."),
        (  # pino's getCallerLocation: a comment, then the coverage tool's in a block of its own
            "Attempt to extract the user callsite (file:line:column)\n istanbul ignore next ",
            "Attempt to extract the user callsite (file:line:column).",
        ),
        (
            "Parse the header.\neslint-disable-next-line no-bitwise\nThe flags are bits.",
            "Parse the header. The flags are bits.",
        ),
        (
            "eslint-disable\ntslint:disable\n\nMock Service Worker.",
            "Mock Service Worker.",
        ),  # OpenHands' worker
        (  # p-queue's lowerBound: a line crediting where the code comes from, then what it does
            "Port of lower_bound from https://en.cppreference.com/w/cpp/algorithm/lower_bound\n"
            "Used to compute insertion index to keep queue sorted after insertion",
            "Used to compute insertion index to keep queue sorted after insertion.",
        ),
    ],
)
def test_a_line_without_its_stop_before_a_line_opening_a_sentence_ends_its_sentence(
    text: str, expected: str
) -> None:
    """Lines that are sentences without their full stops ran together: deepdiff's DeepHash subsystem was "Combines
    lists of hashes into one hash This can be optimized in future." A line ending on a word a sentence goes on
    after, or a line opening on any other word, still wraps."""
    assert summary(text) == expected


def test_a_jsdoc_description_ends_where_its_tags_begin() -> None:
    text = "Prints the comments of a node.\n\n@param {{\n  indent?: boolean,\n}} options how\n@returns {Doc}"
    assert summary(text) == "Prints the comments of a node."


def test_a_jsdoc_comment_of_tags_alone_is_summarised_by_its_summary_or_description_tag() -> None:
    """date-fns' 338 functions open their JSDoc on `@name`, `@category`, then `@summary`; hono's and svelte's
    say what they document only under `@description`: none of them had a summary."""
    text = (
        "@name format\n@alias formatDate\n@category Common Helpers\n@summary Format the date.\n\n"
        "@description\nReturn the formatted date string in the given format.\n\n@param date - The date"
    )
    assert summary(text) == "Format the date."
    described = "@description Wrap the client with the leader/follower pattern.\n@param client - The client"
    assert summary(described) == "Wrap the client with the leader/follower pattern."
    assert summary("@param date - The date\n@returns The formatted date string") == ""


def test_a_comment_banner_is_passed_over_for_the_prose_below_it() -> None:
    text = "/////////// CONSTRUCTORS ///////////\n\nBuilds schemas from their definitions."
    assert summary(text) == "Builds schemas from their definitions."


def test_a_module_docstring_titled_the_rest_way_is_summarized_by_the_text_under_its_title() -> None:
    # requests' and transitions' modules open "requests.sessions" over "~~~~~~~~~~~~~~~~~": a heading
    text = "\n    requests.sessions\n    ~~~~~~~~~~~~~~~~~\n\n    This module provides a Session object.\n"
    assert summary(text) == "This module provides a Session object."
    assert (
        summary("transitions.core\n----------------\n\nThe state machine logic.")
        == "The state machine logic."
    )


def test_a_doc_comment_titled_with_a_few_words_is_summarized_by_the_prose_under_its_title() -> None:
    # node-cron's file header "Node Cron" over what the module does (its subsystem read "Node cron."), 11 of
    # gunicorn's modules ("Gunicorn Control Interface"), waitress' "HTTP Request Parser"
    header = (
        "Node Cron\n \n A flexible cron-based task scheduling system with timezones.\n \n @module node-cron"
    )
    assert summary(header) == "A flexible cron-based task scheduling system with timezones."
    assert summary("Gunicorn Control Interface\n\nProvides a control socket server.") == (
        "Provides a control socket server."
    )
    # … but a title over a pointer or a directive is all the comment says of the code; a sentence stays
    assert summary("Scrapy Shell\n\nSee documentation in docs/topics/shell.rst") == "Scrapy Shell."
    assert summary("Kazoo Interfaces\n\n.. versionchanged:: 1.4\n") == "Kazoo Interfaces."
    assert summary("Return the sum.\n\nMore here.") == "Return the sum."


def test_a_ruby_magic_comment_is_no_description() -> None:
    # every file of sinatra and faraday opens "# frozen_string_literal: true": their subsystems read
    # "Frozen_string_literal: true."
    assert summary("frozen_string_literal: true") == ""
    assert summary("encoding: utf-8") == ""
    assert summary("typed: strict") == ""
    assert summary("Encoding: the text encoding of every file the tool reads.") != ""


def test_summary_ends_at_a_sentence_end_and_takes_a_short_second_sentence() -> None:
    text = (
        "Compute the thing. This is useful for a tool generating\noutput, e.g. a build system. "
        "A third sentence that is never included."
    )
    assert (
        summary(text)
        == "Compute the thing. This is useful for a tool generating output, e.g. a build system."
    )
    long_sentence = "word " * 200
    cut = summary(long_sentence)
    assert cut.endswith("…") and len(cut) <= 320 and "  " not in cut


APACHE_HEADER = """Copyright 2013-2022 The Cobra Authors

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

     http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS."""


def test_nothing_after_a_licence_header_is_taken_for_prose() -> None:
    assert summary(APACHE_HEADER) == ""
    assert summary("Package cobra builds commands.\n\n" + APACHE_HEADER) == "Package cobra builds commands."


def test_remarks_and_abbreviations_do_not_make_sentences() -> None:
    text = "Codec implements the encoders for HCL. TODO: add printer config to the codec?"
    assert summary(text) == "Codec implements the encoders for HCL."
    text = "Command is just that, a command for your application. E.g. 'go run' is one."
    assert summary(text) == text


REQUESTS_INIT = """
Requests HTTP Library
~~~~~~~~~~~~~~~~~~~~~

Requests is an HTTP library, written in Python, for human beings.
Basic GET usage:

   >>> import requests
   >>> r = requests.get('https://www.python.org')
   >>> r.status_code
   200

... or POST:

   >>> print(r.text)
   {
     "form": {
       "key1": "value1"
     }
   }
"""


def test_a_paragraph_announcing_code_keeps_only_its_own_sentences() -> None:
    assert summary(REQUESTS_INIT) == "Requests is an HTTP library, written in Python, for human beings."


def test_placeholders_in_angle_brackets_stay_while_html_tags_go() -> None:
    assert summary("Pages live under repos/<owner>/<repo>/ and <b>nowhere</b> else.<br/>") == (
        "Pages live under repos/<owner>/<repo>/ and nowhere else."
    )


@pytest.mark.parametrize(
    ("doc", "shown"),
    [
        (  # too short to say much on its own: the next sentence joins it
            "Receives a Response. Returns a generator of Responses or Requests.",
            "Receives a Response. Returns a generator of Responses or Requests.",
        ),
        ("Send a prepared request through the adapter. It returns the response.", None),
        ("Too many redirects.", None),
        ("Receives a Response. " + "Then " + "very " * 60 + "long.", "Receives a Response."),
    ],
)
def test_a_symbol_is_described_by_its_lead(doc: str, shown: str | None) -> None:
    assert lead(doc) == (shown or first_sentence(doc))


@pytest.mark.parametrize(
    ("doc", "said"),
    [
        # gws: each field's comment in Chinese, then in English
        ("读缓冲区的大小\nSize of the read buffer", "Size of the read buffer."),
        (
            "ReadN 精准地读取 len(data) 个字节, 否则返回错误\nreads exactly len(data) bytes, otherwise returns an error",
            "reads exactly len(data) bytes, otherwise returns an error.",
        ),
        # zinx: English, then the Chinese in parentheses, on its own line or after the sentence
        ("Start the network service\n(开启网络服务)", "Start the network service."),
        ("Stop stops the server (停止服务)", "Stop stops the server."),
        # gws: the name alone heads the Chinese line
        ("ReadLoop\n循环读取消息.\nRead messages in a loop.", "Read messages in a loop."),
        ("配置\nConfiguration", "Configuration."),
        # Chinese alone, or a Chinese word inside an English sentence, stays
        ("读缓冲区的大小", "读缓冲区的大小."),
        (
            "返回读缓冲区的大小，读取之前必须先调用初始化函数\nUsage:",
            "返回读缓冲区的大小，读取之前必须先调用初始化函数.",
        ),
        ("Greets the user with 你好 and their name.", "Greets the user with 你好 and their name."),
    ],
)
def test_a_comment_written_in_chinese_and_in_english_is_read_in_english(doc: str, said: str) -> None:
    assert summary(doc) == said
