"""Real-time multiplayer UNO server.

``UNO_ENGINE_BUILD`` names a compiled build of the engine (``python -m app.engine._build``,
what scripts/serve.sh and the Docker image serve): ``app.engine`` is then loaded from it (the
same sources, compiled to C by mypyc), every other package from here.
"""

import os
import sys

_engine_build = os.environ.get("UNO_ENGINE_BUILD")
if _engine_build:
    __path__.insert(0, os.path.join(_engine_build, "app"))
    sys.path.append(_engine_build)  # the build's shared ``*__mypyc`` library
