# value: ["s3cret", true, "child", "base", ["_Account__pin", "_Savings__pin"], 1234, true]
class Account:
    def __init__(self, pin):
        self.__pin = pin
        self.__secret = "s3cret"
    def check(self, pin):
        return self.__pin == pin
    def reveal(self):
        return self.__secret
    def who(self):
        return self.__label()
    def __label(self):
        return "base"
class Savings(Account):
    def __init__(self, pin):
        super().__init__(pin)
        self.__pin = "child"
    def mine(self):
        return self.__pin
    def __label(self):
        return "never called by Account.who"
acct = Savings(1234)
names = sorted(name for name in dir(acct) if name.endswith("__pin"))
return [acct.reveal(), acct.check(1234), acct.mine(), acct.who(), names, acct._Account__pin, not hasattr(acct, "__pin")]
