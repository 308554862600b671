"""Celery tasks taken by the name they are registered under.

An app's task module imports its services (a task looks ids up and calls a service), so a
service that enqueues a task cannot import the task module back without a circle. It names
the task instead (the app's ``task_names``, a module below both) and takes it from Celery's
registry here. Every app with tasks imports its task module when Django starts (its
``AppConfig.ready``), so the name is registered in every process that sends: the web
processes, the workers, management commands and the tests.

The task found is the very object the task module defines, so sending is unchanged:
``apply_async`` and ``delay`` run it in the process when tasks are eager (the embedded
default and the tests, ``CELERY_TASK_ALWAYS_EAGER``) and send a message otherwise.
"""

from __future__ import annotations

from celery import Task, current_app

__all__ = ["registered_task"]


def registered_task(name: str) -> Task:
    """The task registered as ``name`` (a ``KeyError`` if no task module registered it)."""
    task: Task = current_app.tasks[name]
    return task
