# description: Export a weather report in every format by discovering exporter subclasses automatically
# value: {"csv": "city,c\nOslo,6.5\nCairo,33.5", "json": "[{\"city\": \"Oslo\", \"c\": 6.5}, {\"city\": \"Cairo\", \"c\": 33.5}]", "pretty.json": "[\n {\n  \"city\": \"Oslo\",\n  \"c\": 6.5\n },\n {\n  \"city\": \"Cairo\",\n  \"c\": 33.5\n }\n]"}
# logs: ["['csv', 'json', 'pretty.json']"]
# limitation: a class's __subclasses__() is refused (dunder); keep a list of the classes
import json


class Exporter:
    ext = "txt"

    def export(self, rows: list[dict]) -> str:
        raise NotImplementedError

    @classmethod
    def all(cls) -> list[type]:
        found = []
        for sub in cls.__subclasses__():
            found.append(sub)
            found.extend(sub.all())
        return found


class CsvExporter(Exporter):
    ext = "csv"

    def export(self, rows):
        head = ",".join(rows[0])
        return "\n".join([head] + [",".join(str(v) for v in r.values()) for r in rows])


class JsonExporter(Exporter):
    ext = "json"

    def export(self, rows):
        return json.dumps(rows)


class PrettyJsonExporter(JsonExporter):
    ext = "pretty.json"

    def export(self, rows):
        return json.dumps(rows, indent=1)


rows = []
for city in ("Oslo", "Cairo"):
    w = await tools.get_weather(city=city)
    rows.append({"city": w["city"], "c": w["celsius"]})

outputs = {}
for klass in Exporter.all():
    outputs[klass.ext] = klass().export(rows)
print(sorted(outputs))
return outputs
