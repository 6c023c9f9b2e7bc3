# description: Build a trie over product names and doc titles for autocomplete suggestions
# value: {"words": 30, "has_hub": true, "has_hu": false, "suggestions": {"s": ["kb-8 Tracking a shipped order", "kb-2 Shipping times", "kb-5 Changing your shipping address"], "pa": ["kb-1 Resetting your password", "kb-7 Password requirements"], "mo": ["MN-27 27-inch monitor", "MS-02 Wireless mouse"], "re": ["kb-4 Refund policy", "kb-7 Password requirements", "kb-1 Resetting your password"], "x": []}}
# logs: ["s  | kb-8 Tracking a shipped order; kb-2 Shipping times; kb-5 Changing your shipping address", "pa | kb-1 Resetting your password; kb-7 Password requirements", "mo | MN-27 27-inch monitor; MS-02 Wireless mouse", "re | kb-4 Refund policy; kb-7 Password requirements; kb-1 Resetting your password", "x  | -"]
from typing import Iterator

class TrieNode:
    __slots__ = ("children", "payload")

    def __init__(self) -> None:
        self.children: dict[str, TrieNode] = {}
        self.payload: list[str] = []

class Trie:
    def __init__(self) -> None:
        self.root = TrieNode()
        self._size = 0

    def insert(self, word: str, payload: str) -> None:
        node = self.root
        for ch in word.casefold():
            node = node.children.setdefault(ch, TrieNode())
        if not node.payload:
            self._size += 1
        node.payload.append(payload)

    def __len__(self) -> int:
        return self._size

    def __contains__(self, word: str) -> bool:
        node = self._find(word)
        return node is not None and bool(node.payload)

    def _find(self, prefix: str) -> TrieNode | None:
        node = self.root
        for ch in prefix.casefold():
            if (node := node.children.get(ch)) is None:
                return None
        return node

    def _walk(self, node: TrieNode, prefix: str) -> Iterator[tuple[str, list[str]]]:
        if node.payload:
            yield prefix, node.payload
        for ch in sorted(node.children):
            yield from self._walk(node.children[ch], prefix + ch)

    def complete(self, prefix: str, limit: int = 5) -> list[str]:
        node = self._find(prefix)
        if node is None:
            return []
        out: list[str] = []
        for _, payload in self._walk(node, prefix.casefold()):
            out.extend(payload)
            if len(out) >= limit:
                break
        return out[:limit]

trie = Trie()
for p in await tools.list_products():
    for word in p["name"].split():
        trie.insert(word.strip("-"), f"{p['sku']} {p['name']}")
for hit in await tools.search_docs(query="password order shipping refund", limit=8):
    for word in hit["title"].split():
        trie.insert(word, f"{hit['id']} {hit['title']}")

suggestions = {q: trie.complete(q, limit=3) for q in ["s", "pa", "mo", "re", "x"]}
for q, s in suggestions.items():
    print(f"{q:<3}| {'; '.join(s) or '-'}")
return {"words": len(trie), "has_hub": "hub" in trie, "has_hu": "hu" in trie, "suggestions": suggestions}
