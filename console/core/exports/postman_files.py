"""A Postman export on disk: the collection and its environment side by side.

The command line and the window both write through :func:`write_postman`, so the file
names, the choice of path form and the permissions of an environment holding a key are
decided once.
"""

from __future__ import annotations

from pathlib import Path

from console.core.atomic import write_text_atomic
from console.core.exports.collection_plan import CollectionTarget
from console.core.exports.postman import dumps, postman_collection, postman_environment

COLLECTION_SUFFIX = ".postman_collection.json"
ENVIRONMENT_SUFFIX = ".postman_environment.json"
COLLECTION_FILE = "gateway-v4" + COLLECTION_SUFFIX


def environment_path(collection: Path) -> Path:
    """Where the environment goes beside ``collection`` (``x.postman_environment.json``)."""
    name = collection.name
    stem = name[: -len(COLLECTION_SUFFIX)] if name.endswith(COLLECTION_SUFFIX) else collection.stem
    return collection.with_name(stem + ENVIRONMENT_SUFFIX)


def write_postman(
    collection_path: Path, target: CollectionTarget, *, private_key_pem: str | None = None
) -> tuple[Path, Path]:
    """Write the collection to ``collection_path`` and its environment beside it.

    Returns:
        The collection's and the environment's paths.

    Raises:
        InputError: a key for a gateway that is not a sandbox (nothing written).
        OSError: a file could not be written.
    """
    environment = postman_environment(
        name=target.name,
        base_url=target.base_url,
        login=target.login,
        endpoint_id=target.endpoint_id,
        endpoint_group_id=target.endpoint_group_id,
        sandbox=target.sandbox,
        private_key_pem=private_key_pem,
    )
    collection = postman_collection(
        group=target.group_form,
        path_templates=target.path_templates,
    )
    paths = (collection_path, environment_path(collection_path))
    write_text_atomic(paths[0], dumps(collection))
    # An environment with a key in it is readable by its owner only.
    write_text_atomic(paths[1], dumps(environment), mode=0o600 if private_key_pem else None)
    return paths
