# description: Cooperative multiple inheritance with mixins calling super().__init__(**kwargs)
# value: {"line": "c1 Ada Lovelace since 2021-03-14 tags=beta,vip extra=['email', 'tier']", "mro": ["CustomerRecord", "TimestampMixin", "TaggedMixin", "Base", "object"]}
class Base:
    def __init__(self, **kwargs):
        super().__init__()
        self.extra = kwargs

class TimestampMixin:
    def __init__(self, *, created, **kwargs):
        self.created = created
        super().__init__(**kwargs)

class TaggedMixin:
    def __init__(self, *, tags=(), **kwargs):
        self.tags = sorted(tags)
        super().__init__(**kwargs)

class CustomerRecord(TimestampMixin, TaggedMixin, Base):
    def __init__(self, *, id, name, **kwargs):
        self.id = id
        self.name = name
        super().__init__(**kwargs)

    def describe(self):
        return f"{self.id} {self.name} since {self.created} tags={','.join(self.tags) or '-'} extra={sorted(self.extra)}"

c = await tools.get_customer(customer_id="c1")
record = CustomerRecord(id=c["id"], name=c["name"], created=c["signup_date"], tags=c["tags"], tier=c["tier"], email=c["email"])
mro = [cls.__name__ for cls in CustomerRecord.mro()]
return {"line": record.describe(), "mro": mro}
