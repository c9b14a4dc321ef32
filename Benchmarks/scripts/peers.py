#!/usr/bin/env python3
"""The benchmark's Python peers: msgspec (typed Structs) and orjson (untyped), timing their own
decodes of one corpus file, as `compare --child` does for the Swift systems.

compare runs it once per system and file, alternated with Magma's and yajl's children, and reads
one line, `MAGMA-RESULT {json}` (the fields of compare's SystemResult). The timing follows
compare's: the file read whole first, a warm-up, then timed runs (at least --min-runs and
--min-seconds), best and median; peak RSS is the process's own.

msgspec decodes into Structs with the same fields as the Swift models of Sources/Corpus/Models,
dates and URLs kept as str (msgspec has no pattern dates, and keeps URLs as text); a corpus kind
with no Struct here is decoded untyped (`msgspec (untyped)`). orjson has no typed mode: it
builds dicts and lists.
"""
import argparse
import json
import sys
import time
from typing import Dict, List, Optional

import msgspec
import orjson


class S(msgspec.Struct):
    """Every Struct here ignores keys it does not name, as the Swift models do."""


# GitHub issues (generated corpus; the webhooks' issues), as Sources/Corpus/Models/GitHubModels.swift.
class GHUser(S):
    login: str = ""
    id: int = 0
    node_id: Optional[str] = None
    avatar_url: Optional[str] = None
    html_url: Optional[str] = None
    type: str = "User"
    site_admin: bool = False


class GHLabel(S):
    id: int = 0
    node_id: str = ""
    url: Optional[str] = None
    name: str = ""
    color: str = ""
    default: bool = False
    description: Optional[str] = None


class GHMilestone(S):
    id: int = 0
    number: int = 0
    title: str = ""
    description: Optional[str] = None
    creator: Optional[GHUser] = None
    open_issues: int = 0
    closed_issues: int = 0
    state: str = "open"
    created_at: str = ""
    updated_at: str = ""
    closed_at: Optional[str] = None
    due_on: Optional[str] = None


class GHReactions(S):
    total_count: int = 0


class GHIssue(S):
    id: int = 0
    node_id: str = ""
    url: Optional[str] = None
    html_url: Optional[str] = None
    number: int = 0
    title: str = ""
    user: Optional[GHUser] = None
    labels: List[GHLabel] = []
    state: str = "open"
    locked: bool = False
    assignee: Optional[GHUser] = None
    assignees: List[GHUser] = []
    milestone: Optional[GHMilestone] = None
    comments: int = 0
    created_at: str = ""
    updated_at: str = ""
    closed_at: Optional[str] = None
    author_association: str = "NONE"
    body: Optional[str] = None
    reactions: Optional[GHReactions] = None


# The seed model (GitHubSeedModels.swift): user.login is all of the user it reads.
class GHSeedLogin(S):
    login: Optional[str] = None


class GHSeedUser(S):
    login: str = ""
    id: int = 0


class GHSeedIssue(S):
    url: Optional[str] = None
    html_url: Optional[str] = None
    number: int = 0
    state: str = "open"
    user: Optional[GHSeedLogin] = None
    assignee: Optional[GHSeedUser] = None
    updated_at: Optional[str] = None
    title: str = ""
    body: Optional[str] = None


# twitter.json (TwitterModels.swift).
class TwitterUser(S):
    id: int = 0
    id_str: str = ""
    name: str = ""
    screen_name: str = ""
    location: str = ""
    description: str = ""
    url: Optional[str] = None
    protected: bool = False
    followers_count: int = 0
    friends_count: int = 0
    listed_count: int = 0
    created_at: str = ""
    favourites_count: int = 0
    utc_offset: Optional[int] = None
    time_zone: Optional[str] = None
    geo_enabled: bool = False
    verified: bool = False
    statuses_count: int = 0
    lang: str = ""
    profile_image_url_https: Optional[str] = None
    profile_banner_url: Optional[str] = None
    default_profile: bool = False
    following: bool = False


class Hashtag(S):
    text: str = ""
    indices: List[int] = []


class TweetURL(S):
    url: Optional[str] = None
    expanded_url: Optional[str] = None
    display_url: str = ""
    indices: List[int] = []


class UserMention(S):
    screen_name: str = ""
    name: str = ""
    id: int = 0
    indices: List[int] = []


class MediaSize(S):
    w: int = 0
    h: int = 0
    resize: str = ""


class TweetMedia(S):
    id: int = 0
    media_url_https: Optional[str] = None
    url: Optional[str] = None
    display_url: str = ""
    expanded_url: Optional[str] = None
    type: str = ""
    sizes: Dict[str, MediaSize] = {}
    indices: List[int] = []
    source_status_id: Optional[int] = None


class TweetEntities(S):
    hashtags: List[Hashtag] = []
    urls: List[TweetURL] = []
    user_mentions: List[UserMention] = []
    media: Optional[List[TweetMedia]] = None


class TweetMetadata(S):
    result_type: str = ""
    iso_language_code: str = ""


class RetweetedStatus(S):
    id: int = 0
    id_str: str = ""
    text: str = ""
    created_at: str = ""
    user: TwitterUser = msgspec.field(default_factory=TwitterUser)
    entities: TweetEntities = msgspec.field(default_factory=TweetEntities)
    retweet_count: int = 0
    favorite_count: int = 0
    lang: str = ""


class Tweet(S):
    id: int = 0
    id_str: str = ""
    text: str = ""
    source: str = ""
    truncated: bool = False
    created_at: str = ""
    in_reply_to_status_id: Optional[int] = None
    in_reply_to_user_id: Optional[int] = None
    in_reply_to_screen_name: Optional[str] = None
    user: TwitterUser = msgspec.field(default_factory=TwitterUser)
    entities: TweetEntities = msgspec.field(default_factory=TweetEntities)
    retweet_count: int = 0
    favorite_count: int = 0
    favorited: bool = False
    retweeted: bool = False
    possibly_sensitive: Optional[bool] = None
    lang: str = ""
    metadata: TweetMetadata = msgspec.field(default_factory=TweetMetadata)
    retweeted_status: Optional[RetweetedStatus] = None


class TwitterSearchMetadata(S):
    completed_in: float = 0.0
    max_id: int = 0
    max_id_str: str = ""
    query: str = ""
    count: int = 0
    since_id: int = 0


class TwitterSearch(S):
    statuses: List[Tweet] = []
    search_metadata: TwitterSearchMetadata = msgspec.field(default_factory=TwitterSearchMetadata)


# canada.json (CanadaModels.swift).
class CanadaGeometry(S):
    type: str = ""
    coordinates: List[List[List[float]]] = []


class CanadaFeature(S):
    type: str = ""
    properties: Dict[str, str] = {}
    geometry: CanadaGeometry = msgspec.field(default_factory=CanadaGeometry)


class CanadaFeatureCollection(S):
    type: str = ""
    features: List[CanadaFeature] = []


# citm_catalog.json (CITMModels.swift); `start` is epoch milliseconds.
class CITMEvent(S, rename="camel"):
    id: int = 0
    name: str = ""
    description: Optional[str] = None
    logo: Optional[str] = None
    sub_topic_ids: List[int] = []
    subject_code: Optional[str] = None
    subtitle: Optional[str] = None
    topic_ids: List[int] = []


class CITMPrice(S, rename="camel"):
    amount: int = 0
    audience_sub_category_id: int = 0
    seat_category_id: int = 0


class CITMArea(S, rename="camel"):
    area_id: int = 0
    block_ids: List[int] = []


class CITMSeatCategory(S, rename="camel"):
    areas: List[CITMArea] = []
    seat_category_id: int = 0


class CITMPerformance(S, rename="camel"):
    id: int = 0
    event_id: int = 0
    logo: Optional[str] = None
    name: Optional[str] = None
    prices: List[CITMPrice] = []
    seat_categories: List[CITMSeatCategory] = []
    seat_map_image: Optional[str] = None
    start: int = 0
    venue_code: str = ""


class CITMCatalog(S, rename="camel"):
    area_names: Dict[str, str] = {}
    audience_sub_category_names: Dict[str, str] = {}
    block_names: Dict[str, str] = {}
    events: Dict[str, CITMEvent] = {}
    performances: List[CITMPerformance] = []
    seat_category_names: Dict[str, str] = {}
    sub_topic_names: Dict[str, str] = {}
    subject_names: Dict[str, str] = {}
    topic_names: Dict[str, str] = {}
    topic_sub_topics: Dict[str, List[int]] = {}
    venue_names: Dict[str, str] = {}


# corpus kind (compare's --model) -> (record Struct, how many records one decoded value holds)
TYPED = {
    "github-issues": (GHIssue, None),
    "github-issues-seed": (GHSeedIssue, None),
    "twitter": (TwitterSearch, lambda t: len(t.statuses)),
    "canada": (CanadaFeatureCollection,
               lambda c: sum(len(ring) for f in c.features for ring in f.geometry.coordinates)),
    "citm": (CITMCatalog, lambda c: len(c.events) + len(c.performances)),
}


def lines(data):
    return [line for line in data.split(b"\n") if line.strip()]


def decoder_for(system, kind, layout):
    """A function of the file's bytes that decodes them and returns the number of records."""
    typed = TYPED.get(kind) if system == "msgspec" else None
    if system == "orjson":
        loads = orjson.loads
    elif typed is None:
        loads = msgspec.json.Decoder().decode
    elif layout == "array":
        loads = msgspec.json.Decoder(List[typed[0]]).decode
    else:
        loads = msgspec.json.Decoder(typed[0]).decode

    if layout == "ndjson":
        if system == "msgspec":
            decode_lines = msgspec.json.Decoder(typed[0] if typed else object).decode_lines
            return lambda data: len(decode_lines(data))
        return lambda data: len([loads(line) for line in lines(data)])
    if layout == "array":
        return lambda data: len(loads(data))
    count = typed[1] if typed else None

    def document(data):
        value = loads(data)
        return count(value) if count else 1
    return document


def resident_bytes(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--system", choices=["msgspec", "orjson"], required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--layout", choices=["array", "document", "ndjson"], required=True)
    parser.add_argument("--min-runs", type=int, default=3)
    parser.add_argument("--min-seconds", type=float, default=1.5)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--versions", action="store_true", help="print the peers' versions and exit")
    args = parser.parse_args()

    with open(args.corpus, "rb") as f:
        data = f.read()
    result = {"system": args.system, "runs": 0, "bestSeconds": 0, "medianSeconds": 0,
              "baselineResidentBytes": resident_bytes("VmRSS:")}
    try:
        decode = decoder_for(args.system, args.model, args.layout)
        warmup = 0.05 if args.quick else 0.2
        start = time.perf_counter()
        records = decode(data)
        while time.perf_counter() - start < warmup:
            decode(data)
        samples = []
        start = time.perf_counter()
        while len(samples) < 500:
            t0 = time.perf_counter()
            records = decode(data)
            samples.append(time.perf_counter() - t0)
            if len(samples) >= args.min_runs and time.perf_counter() - start >= args.min_seconds:
                break
        samples.sort()
        result.update(runs=len(samples), bestSeconds=samples[0], medianSeconds=samples[len(samples) // 2])
        if args.layout != "document" or (args.system == "msgspec" and args.model in TYPED):
            result["records"] = records
    except Exception as error:  # reported in the row, as a Swift system's error is
        result["error"] = f"{type(error).__name__}: {error}"
    result["peakResidentBytes"] = resident_bytes("VmHWM:")
    print("MAGMA-RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    if "--versions" in sys.argv:
        print(f"msgspec {msgspec.__version__}, orjson {orjson.__version__}, Python {sys.version.split()[0]}")
        sys.exit(0)
    main()
