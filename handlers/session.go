package handlers
