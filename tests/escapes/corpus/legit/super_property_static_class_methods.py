# value: [10, 4, "unit", 6]
class Base:
    def __init__(self, size):
        self.stored = size
    @property
    def size(self):
        return self.stored
class Square(Base):
    def __init__(self, side):
        super().__init__(side * side)
        self.side = side
    @staticmethod
    def kind():
        return "unit"
    @classmethod
    def of(cls, side):
        return cls(side)
s = Square.of(2)
return [s.size + 6, s.size, Square.kind(), len(str(s.side)) + 5]
