"""request.py: a request for one operation of the OpenAPI document, built
from what the document says: each parameter's and body member's example,
else its default, else the first value of its enum, else the smallest value
its schema allows. A name the walk has seen a real value for (an id the
server handed out, a token's code) takes that value instead."""
import json
import time
import urllib.parse
import uuid


def smallest(schema):
    """The smallest value a (field) schema allows."""
    if "examples" in schema:
        return schema["examples"][0]
    if "default" in schema:
        return schema["default"]
    if "enum" in schema:
        return schema["enum"][0]
    t = schema.get("type")
    if t == "integer":
        return schema.get("minimum", 1)
    if t == "boolean":
        return True
    if t == "array":
        return [smallest(schema.get("items", {})) for _ in range(max(1, schema.get("minItems", 1)))]
    if t == "object":
        return {k: smallest(s) for k, s in schema.get("properties", {}).items()
                if k in schema.get("required", [])}
    return "a" * max(1, schema.get("minLength", 1))


class Moment:
    """A time the walk picks (the seeded telemetry covers the last 30 days),
    written as the example writes it: a timestamp (an integer, or a string of
    digits), else 'year-month-day hour:minute:second' (UTC)."""
    def __init__(self, seconds):
        self.seconds = int(seconds)

    def as_example(self, schema, example):
        if schema.get("type") == "integer":
            return self.seconds
        if example is None or str(example).isdigit():
            return str(self.seconds)
        return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(self.seconds))


def value_of(name, schema, known, example=None):
    if name in known:
        v = known[name]
        if isinstance(v, Moment):
            return v.as_example(schema, example)
        return [v] if schema.get("type") == "array" and not isinstance(v, list) else v
    if example is not None:
        return example
    return smallest(schema)


def form_pairs(fields):
    pairs = []
    for k, v in fields.items():
        for item in (v if isinstance(v, list) else [v]):
            if isinstance(item, bool):
                item = "true" if item else "false"
            elif isinstance(item, (dict, list)):
                item = json.dumps(item)
            pairs.append((k, str(item)))
    return pairs


def multipart(fields, files):
    boundary = uuid.uuid4().hex
    out = []
    for k, v in form_pairs(fields):
        out.append('--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' % (boundary, k, v))
    for k, (filename, data) in files.items():
        out.append('--%s\r\nContent-Disposition: form-data; name="%s"; filename="%s"\r\n'
                   'Content-Type: application/octet-stream\r\n\r\n%s\r\n' % (boundary, k, filename, data))
    out.append("--%s--\r\n" % boundary)
    return "multipart/form-data; boundary=" + boundary, "".join(out).encode()


def build(path, method, op, known, files):
    """(method, path with its parameters, query, headers, body bytes or None)."""
    query = {}
    for p in op.get("parameters", []):
        v = value_of(p["name"], p.get("schema", {}), known, p.get("example"))
        if p["in"] == "path":
            path = path.replace("{%s}" % p["name"], urllib.parse.quote(str(v), safe=""))
        elif p["required"] or "example" in p:
            query[p["name"]] = v
    headers, body = {}, None
    content = op.get("requestBody", {}).get("content", {})
    kind = next((k for k in ("application/x-ndjson", "application/json", "application/x-www-form-urlencoded",
                             "multipart/form-data") if k in content), None)
    if kind == "application/x-ndjson":
        headers["Content-Type"] = kind
        lines = [json.loads(line) for line in content[kind].get("example", "").splitlines() if line]
        for record in lines:  # its times in the walk's window
            for k, v in record.items():
                if isinstance(known.get(k), Moment):
                    record[k] = known[k].seconds
        body = "".join(json.dumps(r) + "\n" for r in lines).encode()
    elif kind:
        schema = content[kind]["schema"]
        example = content[kind].get("example", {})
        fields, parts = {}, {}
        for name, s in schema.get("properties", {}).items():
            if s.get("format") == "binary":
                if name in files:
                    parts[name] = files[name]
                continue
            if name in schema.get("required", []) or name in example:
                fields[name] = value_of(name, s, known, example.get(name))
        if parts:
            kind = "multipart/form-data"
        if kind == "application/json":
            headers["Content-Type"] = kind
            body = json.dumps(fields).encode()
        elif kind == "multipart/form-data":
            headers["Content-Type"], body = multipart(fields, parts)
        else:
            headers["Content-Type"] = kind
            body = urllib.parse.urlencode(form_pairs(fields)).encode()
    return method.upper(), path, query, headers, body
