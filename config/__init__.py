# Load the Celery app whenever Django starts, so @shared_task uses it.
from config.celery import app as celery_app

__all__ = ("celery_app",)
