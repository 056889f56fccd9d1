"""`cuda.tile._bytecode` and `cuda.tile._bytecode.version`: TileIR bytecode versions."""
import enum
import os


class BytecodeVersion(enum.IntEnum):
    """TileIR bytecode versions (the members of cuda.tile 1.7.0's)."""
    V_13_1 = 130100
    V_13_2 = 130200
    V_13_3 = 130300
    V_13_4 = 130400
    V_13_5 = 130500

    def major(self) -> int:
        return self.value // 10000

    def minor(self) -> int:
        return (self.value // 100) % 100

    def tag(self) -> int:
        return self.value % 100

    def as_string(self) -> str:
        text = f"{self.major()}.{self.minor()}"
        return text if self.tag() == 0 else f"{text}.{self.tag()}"


SUPPORTED_VERSIONS = [BytecodeVersion.V_13_1, BytecodeVersion.V_13_2, BytecodeVersion.V_13_3,
                      BytecodeVersion.V_13_4]


def emulated_version() -> BytecodeVersion:
    """The tileiras version whose features tilescope's front end allows (it gates ops such as
    `insert` on it): TILESCOPE_TILEIRAS_VERSION, default 13.3."""
    major, minor = (int(p) for p in os.environ.get("TILESCOPE_TILEIRAS_VERSION", "13.3").split(".")[:2])
    return BytecodeVersion(major * 10000 + minor * 100)
