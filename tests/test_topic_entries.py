"""A reference entry's parts speak of the API its heading names (issue 30): "全局注册校验语言包…" under
"## registerValidateLocale / #### 描述" says nothing of registerValidateLocale read alone, so a report never
quotes it as what its subject is; and a page titled after the subject that opens with a lead-in and its list
says what the subject is with that list."""

from __future__ import annotations

from generator.topic import workspace as wsp
from generator.topic.definition import definition
from generator.topic.judge import RelevanceJudge
from generator.topic.passage_headings import entry_name, stranded_in_entry

REGISTRY = (
    "# Form Validator Registry\n\n"
    "## setValidateLanguage\n\n#### 描述\n\n设置内置校验规则语言\n\n"
    "## registerValidateLocale\n\n#### 描述\n\n全局注册校验语言包，目前内置语言包参考：locale.ts\n\n"
    "#### 用例\n\n```ts\nregisterValidateLocale({ ja: { required: '必須' } })\n```\n"
)
CLIENT = (
    "# 服务端渲染\n\n在浏览器中加载客户端轻量运行时。\n\n### API\n\n"
    "#### hydrate(dom: HTMLElement, options: Options)\n\n"
    "- `dom`：图表容器，其内部的内容在调用本方法前应已设为服务端渲染的 SVG 图表\n- `options`：配置项\n\n"
    "## 服务端 SVG 渲染\n\n5.3.0 里新引入了零依赖的服务端 SVG 字符串渲染方案。\n"
)
VALIDATE = (
    "# 表单校验\n\n"
    "Formily 的表单校验使用了强大且灵活的 @formily/validator 校验引擎，校验主要分两种场景：\n\n"
    "- Schema 场景使用 JSON Schema 本身的校验属性与 x-validator 属性实现校验\n"
    "- 纯 JSX 场景使用 validator 属性实现校验\n\n"
    "## 内置规则校验\n\n内置规则有 required、max、min 等。\n"
)


def _source(sid: str, title: str, text: str) -> wsp.RawSource:
    return wsp.RawSource(sid, "local", f"local:{sid}.md", title, "t", text, kind="local", relevance=0.9)


def test_an_entry_heading_names_an_api_in_codes_spelling() -> None:
    assert entry_name("hydrate(dom: HTMLElement, options: Options)") == "hydrate"
    assert entry_name("FormDialog.Portal") == "FormDialog.Portal"
    assert entry_name("registerValidateLocale") == "registerValidateLocale"
    assert entry_name("Installation") == entry_name("API") == entry_name("主动模式") == ""


def test_a_passage_in_an_entry_it_does_not_name_is_stranded() -> None:
    assert stranded_in_entry("全局注册校验语言包，目前内置语言包参考：locale.ts", REGISTRY)
    assert stranded_in_entry("dom：图表容器，其内部的内容在调用本方法前应已设为服务端渲染的 SVG 图表", CLIENT)
    # prose under a heading in words, the document's own lead, and an entry the subject names are not
    assert not stranded_in_entry("5.3.0 里新引入了零依赖的服务端 SVG 字符串渲染方案。", CLIENT)
    assert not stranded_in_entry("在浏览器中加载客户端轻量运行时。", CLIENT)
    assert not stranded_in_entry(
        "全局注册校验语言包，目前内置语言包参考：locale.ts", REGISTRY, "registerValidateLocale"
    )


def test_the_definition_is_the_titled_pages_lead_in_with_its_list_not_an_entrys_description() -> None:
    sources = [
        _source("local-r", "Form Validator Registry", REGISTRY),
        _source("local-v", "表单校验", VALIDATE),
    ]
    opening = definition(sources, RelevanceJudge("表单校验"), lambda s: True)
    assert opening is not None and opening.sources == ["local-v"]
    assert opening.text.startswith("Formily 的表单校验使用了") and len(opening.items) == 2
    alone = definition([sources[0]], RelevanceJudge("表单校验"), lambda s: True)
    assert alone is None or "全局注册校验语言包" not in alone.text
