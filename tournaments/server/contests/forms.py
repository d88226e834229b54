"""The contest's form in the organisers' console: the ruleset chosen from a list, and its
options as fields drawn from the families' option schemas (`referee.engine.Family.options`),
each checked by its own schema, instead of a ruleset typed by hand and options as raw JSON."""

from __future__ import annotations

from typing import Any

from django import forms

from tournaments.server.contests.models import Contest

OPTION_PREFIX = "option_"


def _families() -> list[Any]:
    from referee.engine import FAMILIES

    return list(FAMILIES.values())


def _rulesets_of(family: str) -> list[str]:
    from referee.engine import RULESETS

    return [name for name, rules in RULESETS.items() if rules.family == family]


def option_fields() -> dict[str, forms.Field]:
    """A field per option of every family, named option_<name> (blank: the option's default)."""
    fields: dict[str, forms.Field] = {}
    for family in _families():
        for option in family.options:
            fields[OPTION_PREFIX + option.name] = forms.CharField(
                required=False,
                max_length=200,
                label=f"{option.name} ({', '.join(_rulesets_of(family.name))})",
                help_text=f"{option.help}; blank: the default, {option.default}",
                widget=forms.TextInput(attrs={"placeholder": option.default}),
            )
    return fields


class _ContestForm(forms.ModelForm):  # type: ignore[type-arg]
    ruleset = forms.ChoiceField(help_text="the rules every game of the contest is played by")

    class Meta:
        model = Contest
        exclude = ("ruleset_options",)  # the option fields below stand for it

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from referee.engine import RULESETS

        super().__init__(*args, **kwargs)
        ruleset = self.fields["ruleset"]
        assert isinstance(ruleset, forms.ChoiceField)
        ruleset.choices = [(name, f"{name}: {rules.title}") for name, rules in RULESETS.items()]
        for name, value in self.instance.options().items():
            self.initial.setdefault(OPTION_PREFIX + name, value)

    def clean(self) -> dict[str, Any]:
        """The options given, checked by the chosen ruleset's family's schema: an option of
        another family is refused on its own field, saying which rulesets take it."""
        from referee.engine import EngineError, family_of

        data: dict[str, Any] = super().clean() or {}
        ruleset = data.get("ruleset")
        if not ruleset:
            return data
        family = family_of(ruleset)
        options: dict[str, str] = {}
        for field in option_fields():
            value = str(data.get(field) or "").strip()
            if not value:
                continue
            name = field.removeprefix(OPTION_PREFIX)
            if family.option(name) is None:
                self.add_error(field, f"{ruleset} has no option {name}: leave it blank")
                continue
            try:
                family.check_options({name: value})
            except EngineError as exc:
                self.add_error(field, str(exc))
                continue
            options[name] = value
        self.instance.ruleset_options = options
        return data


# The option fields declared on the class (what the admin lists and a ModelForm factory keeps),
# from the families registered when the server starts.
ContestForm = type("ContestForm", (_ContestForm,), option_fields())
