from wiki.models.changes import ChangeEvent
from wiki.models.claims import Citation, CitationKind, Claim, ClaimRevision, ClaimStatus
from wiki.models.classifications import Classification, ClassificationChange, Contrast, SetBy
from wiki.models.findings import FindingDismissal
from wiki.models.glossary import GlossaryTerm
from wiki.models.imports import SourceImport
from wiki.models.merges import SourceMerge
from wiki.models.pages import Page, PageRedirect, Revision, WikiLink
from wiki.models.questions import OpenQuestion, QuestionPriority, QuestionStatus
from wiki.models.readers import ReaderProfile
from wiki.models.search import SearchDocument
from wiki.models.sources import Component, Source, SourceKind
from wiki.models.suggestions import StoredSuggestion
from wiki.models.tokens import ApiToken
from wiki.models.watches import Watch

__all__ = [
    "ApiToken",
    "ChangeEvent",
    "Citation",
    "CitationKind",
    "Claim",
    "ClaimRevision",
    "ClaimStatus",
    "Classification",
    "ClassificationChange",
    "Component",
    "Contrast",
    "FindingDismissal",
    "GlossaryTerm",
    "OpenQuestion",
    "Page",
    "PageRedirect",
    "QuestionPriority",
    "QuestionStatus",
    "ReaderProfile",
    "Revision",
    "SearchDocument",
    "SetBy",
    "Source",
    "SourceImport",
    "SourceKind",
    "SourceMerge",
    "StoredSuggestion",
    "Watch",
    "WikiLink",
]
