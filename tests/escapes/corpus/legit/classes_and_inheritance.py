# value: ["Rex says woof", "Tom says meow", 2]
class Animal:
    count = 0
    def __init__(self, name):
        self.name = name
        Animal.count += 1
    def speak(self):
        return f"{self.name} says {self.sound()}"
class Dog(Animal):
    def sound(self):
        return "woof"
class Cat(Animal):
    def sound(self):
        return "meow"
return [Dog("Rex").speak(), Cat("Tom").speak(), Animal.count]
